import CSixel
import Foundation
import Testing
import WebImage
import WebImagePNG
import WebImageTerminal
import WebImageTesting

@Suite("Inline image protocols")
struct ProtocolSequenceTests {
    static func tinyPNG() throws -> (Data, PixelBuffer) {
        var pixels = PixelBuffer(width: 2, height: 1, alphaMode: .straight)
        pixels[0, 0] = RGBA8(r: 255, g: 0, b: 0)
        pixels[1, 0] = RGBA8(r: 0, g: 0, b: 255)
        let png = try PNGCoder().encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions())
        return (png, pixels)
    }

    /// The APC sequences of a kitty transmission, split into control keys and payload.
    static func kittyChunks(_ text: String) -> [(keys: String, payload: String)] {
        text.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }.map { part in
            #expect(part.hasPrefix("\u{1B}_G"))
            let body = part.dropFirst(3)
            let split = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(split[0]), split.count > 1 ? String(split[1]) : "")
        }
    }

    @Test func kittyTinyImageIsOneChunkWithThePNGInBase64() throws {
        let (png, pixels) = try Self.tinyPNG()
        let sequence = KittyGraphics.sequence(png: png, columns: 2, rows: 1)
        #expect(sequence == "\u{1B}_Ga=T,f=100,t=d,q=2,c=2,r=1,m=0;\(png.base64EncodedString())\u{1B}\\")
        let chunks = Self.kittyChunks(sequence)
        let decoded = try PNGCoder().decode(try #require(Data(base64Encoded: chunks[0].payload)), options: .init())
        #expect(decoded.pixels.converted(to: .straight).bytes == pixels.bytes)
    }

    @Test func kittyLargePayloadIsChunkedPerTheSpecification() throws {
        // Noise compresses badly: the PNG's base64 spans several 4096-byte chunks.
        var random = SplitMix64(seed: 15)
        var pixels = PixelBuffer(width: 64, height: 64, alphaMode: .straight)
        for index in pixels.bytes.indices { pixels.bytes[index] = index % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: random.next()) }
        let png = try PNGCoder().encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions())
        let sequence = KittyGraphics.sequence(png: png, columns: 8, rows: 4, imageID: 7, placementID: 1, moveCursor: false)
        let chunks = Self.kittyChunks(sequence)
        #expect(chunks.count == (png.base64EncodedString().utf8.count + 4095) / 4096)
        #expect(chunks.count >= 3)
        #expect(chunks[0].keys == "a=T,f=100,t=d,q=2,c=8,r=4,i=7,p=1,C=1,m=1")
        for chunk in chunks.dropFirst().dropLast() { #expect(chunk.keys == "m=1") }
        #expect(chunks.last?.keys == "m=0")
        for chunk in chunks {
            #expect(chunk.payload.utf8.count <= 4096)
            #expect(chunk.payload.utf8.count % 4 == 0)
        }
        #expect(chunks.map(\.payload).joined() == png.base64EncodedString())
    }

    @Test func iTerm2SequenceCarriesSizeCellsAndTheFile() throws {
        let (png, _) = try Self.tinyPNG()
        let sequence = ITerm2Graphics.sequence(png: png, columns: 2, rows: 1)
        #expect(sequence == "\u{1B}]1337;File=inline=1;size=\(png.count);width=2;height=1;preserveAspectRatio=1:"
            + png.base64EncodedString() + "\u{07}")
        let named = ITerm2Graphics.sequence(png: png, columns: 2, rows: 1, name: "a.png")
        #expect(named.hasPrefix("\u{1B}]1337;File=name=YS5wbmc=;inline=1;"))
    }

    @Test func sixelIsADCSSequenceThatDecodesBackToTheImage() throws {
        // 4×6: left half red, right half blue; one sixel band.
        var pixels = PixelBuffer(width: 4, height: 6, alphaMode: .straight, fill: RGBA8(r: 255, g: 0, b: 0))
        for y in 0..<6 { for x in 2..<4 { pixels[x, y] = RGBA8(r: 0, g: 0, b: 255) } }
        let sixel = try SixelEncoder.encode(pixels)
        #expect(sixel.hasPrefix("\u{1B}P"))
        #expect(sixel.hasSuffix("\u{1B}\\"))
        let body = try #require(sixel.split(separator: "q", maxSplits: 1).last)
        #expect(body.hasPrefix("\"1;1;4;6"))  // raster attributes: aspect 1:1, 4×6 pixels
        // Colour registers `#n;2;R;G;B` are RGB percentages; libsixel's palette is built from a
        // 5-bit histogram, so pure red comes out as 97%, not 100%.
        let registers = Self.sixelRegisters(String(body))
        #expect(registers.count == 2)
        #expect(registers.contains { $0[0] >= 95 && $0[1] == 0 && $0[2] == 0 })
        #expect(registers.contains { $0[0] == 0 && $0[1] == 0 && $0[2] >= 95 })
        let decoded = try Self.decodeSixel(sixel)
        #expect(decoded.width == 4 && decoded.height == 6)
        for y in 0..<6 {
            for x in 0..<4 {
                let colour = decoded.colour(x, y)
                let expected: [Int] = x < 2 ? [255, 0, 0] : [0, 0, 255]
                #expect(zip(colour, expected).allSatisfy { abs(Int($0) - $1) <= 10 }, "pixel \(x),\(y): \(colour)")
            }
        }
    }

    /// The `#n;2;R;G;B` colour definitions of a sixel body, as [R, G, B] percentages.
    static func sixelRegisters(_ body: String) -> [[Int]] {
        body.split(separator: "#").compactMap { part in
            let fields = part.prefix { $0.isNumber || $0 == ";" }.split(separator: ";").compactMap { Int($0) }
            return fields.count == 5 && fields[1] == 2 ? Array(fields[2...4]) : nil
        }
    }

    @Test func sixelFlattensAlphaOverBlack() throws {
        // Fully transparent white: the only colour register is black.
        let pixels = PixelBuffer(width: 3, height: 6, alphaMode: .straight, fill: RGBA8(r: 255, g: 255, b: 255, a: 0))
        let sixel = try SixelEncoder.encode(pixels)
        #expect(Self.sixelRegisters(sixel) == [[0, 0, 0]])
    }

    /// libsixel's own decoder: indexed pixels and an RGB palette.
    struct DecodedSixel {
        var width: Int, height: Int, indices: [UInt8], palette: [UInt8]
        func colour(_ x: Int, _ y: Int) -> [UInt8] {
            let index = Int(indices[y * width + x]) * 3
            guard index + 3 <= palette.count else { return [] }
            return Array(palette[index..<index + 3])
        }
    }

    static func decodeSixel(_ text: String) throws -> DecodedSixel {
        var bytes = Array(text.utf8)
        var pixels: UnsafeMutablePointer<UInt8>?
        var palette: UnsafeMutablePointer<UInt8>?
        var (width, height, colours): (Int32, Int32, Int32) = (0, 0, 0)
        let status = sixel_decode_raw(&bytes, Int32(bytes.count), &pixels, &width, &height, &palette, &colours, nil)
        try #require(status & 0x1000 == 0)
        defer {
            free(pixels)
            free(palette)
        }
        let count = Int(width * height)
        try #require(count > 0 && colours > 0)
        return DecodedSixel(
            width: Int(width), height: Int(height),
            indices: Array(UnsafeBufferPointer(start: try #require(pixels), count: count)),
            palette: Array(UnsafeBufferPointer(start: try #require(palette), count: Int(colours) * 3)))
    }
}
