import Foundation
import Testing
import WebImageCodecs

@Suite("webimage convert keeps exact pixels", .timeLimit(.minutes(3)))
struct ConvertExactPixelsTests {
    @Test("convert a.png b.png gives back every straight RGBA byte of a translucent image")
    func pngToPNGIsBitExact() async throws {
        // Every colour value under every alpha value: a premultiplied detour changes thousands.
        let source = PixelBuffer(width: 256, height: 256, alphaMode: .straight) { out in
            for i in 0..<(256 * 256) {
                out[4 * i] = UInt8(i & 0xFF)
                out[4 * i + 1] = UInt8(255 - (i & 0xFF))
                out[4 * i + 2] = UInt8((i * 7) & 0xFF)
                out[4 * i + 3] = UInt8(i >> 8)
            }
        }
        let coders = ImageCodersManager.standard()
        try await withTemporaryDirectory { directory in
            try coders.encode(Image(pixels: source), as: .png, options: ImageEncodingOptions())
                .write(to: directory.appendingPathComponent("a.png"))
            let run = try await CLI.run(["convert", "a.png", "b.png"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let converted = try Data(contentsOf: directory.appendingPathComponent("b.png"))
            let decoded = try coders.decode(converted, options: ImageDecodingOptions(alphaMode: .straight))
            #expect(decoded.pixels == source)
        }
    }
}
