import Foundation
import Testing

@testable import WebImage

@Suite("ThumbHash")
struct ThumbHashTests {
    /// A buffer whose pixels `color(x, y)` gives, straight alpha.
    static func pixels(_ width: Int, _ height: Int, _ color: (Int, Int) -> RGBA8) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, alphaMode: .straight)
        for y in 0..<height { for x in 0..<width { buffer[x, y] = color(x, y) } }
        return buffer
    }

    static let opaque = pixels(32, 24) { x, y in RGBA8(r: UInt8(x * 8), g: UInt8(y * 10), b: UInt8((x * y) % 256), a: 255) }
    static let translucent = pixels(20, 30) { x, y in RGBA8(r: 200, g: UInt8(x * 12), b: UInt8(y * 8), a: UInt8(((x + y) * 6) % 256)) }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    // The expected hashes were computed for these same pixels by an independent implementation
    // (the `thumbhash-python` package), so the bit layout is checked, not only self-consistency.
    @Test("an opaque and a translucent image hash to the reference bytes")
    func referenceHashes() throws {
        #expect(Self.hex(try ThumbHash.encode(Self.opaque)) == "db180e1d9a6076877088888688678887f3a40ff788")
        #expect(Self.hex(try ThumbHash.encode(Self.translucent)) == "e69886330c2880a1998977928ff5668663785079958666")
    }

    @Test("premultiplied pixels hash as their straight colours")
    func premultiplied() throws {
        let solid = Self.pixels(10, 10) { _, _ in RGBA8(r: 200, g: 100, b: 50, a: 128) }
        var premultiplied = solid
        premultiplied.alphaMode = .premultiplied
        for y in 0..<10 { for x in 0..<10 { premultiplied[x, y] = RGBA8(r: 100, g: 50, b: 25, a: 128) } }
        let a = try ThumbHash.encode(solid)
        let b = try ThumbHash.encode(premultiplied)
        let (ra, ga, ba, aa) = ThumbHash.averageColor(of: a)
        let (rb, gb, bb, ab) = ThumbHash.averageColor(of: b)
        #expect(abs(ra - rb) < 0.03 && abs(ga - gb) < 0.03 && abs(ba - bb) < 0.03 && abs(aa - ab) < 0.01)
    }

    @Test("the hash carries the average colour and the aspect ratio")
    func averageAndAspect() throws {
        let red = try ThumbHash.encode(Self.pixels(100, 50) { _, _ in RGBA8(r: 255, g: 0, b: 0, a: 255) })
        let average = ThumbHash.averageColor(of: red)
        #expect(average.red > 0.95 && average.green < 0.05 && average.blue < 0.05 && average.alpha == 1)
        #expect(abs(ThumbHash.approximateAspectRatio(of: red) - 2) < 0.3)
        let tall = try ThumbHash.encode(Self.pixels(30, 90) { _, _ in RGBA8(r: 0, g: 0, b: 255, a: 255) })
        #expect(ThumbHash.approximateAspectRatio(of: tall) < 0.5)
        #expect(throws: WebImageError.self) { try ThumbHash.encode(Self.pixels(101, 10) { _, _ in .clear }) }
    }
}
