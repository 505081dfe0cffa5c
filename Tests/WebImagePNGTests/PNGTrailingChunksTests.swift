import Foundation
import Testing
import WebImage
import WebImagePNG
import WebImageTesting

/// A PNG whose image data is complete decodes even when what follows it is missing or cut (no
/// IEND, a text chunk cut short), as browsers and Pillow show it; a cut inside the image data is
/// still `badImageData`. The files are our own encoder's output, cut by hand.
@Suite struct PNGTrailingChunksTests {
    let coder = PNGCoder()

    /// A translucent image encoded by PNGCoder, and where its image data (the IDAT run) ends.
    static func encoded(width: Int = 61, height: Int = 37, interlaced: Bool = false) throws -> (data: [UInt8], pixels: PixelBuffer, idatEnd: Int) {
        let pixels = ImageFixtures.translucentGradient(width: width, height: height)
        var bytes = [UInt8](try PNGCoder().encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions()))
        if interlaced { bytes = reinterlaced(bytes, pixels: pixels) }
        let chunks = TestPNG.chunkList(bytes)
        let lastIDAT = try #require(chunks.last { $0.type == "IDAT" })
        #expect(chunks.last?.type == "IEND")
        return (bytes, pixels, lastIDAT.end)
    }

    /// The same image written Adam7-interlaced by the test builder (PNGCoder writes non-interlaced).
    static func reinterlaced(_ bytes: [UInt8], pixels: PixelBuffer) -> [UInt8] {
        [UInt8](TestPNG.rgba(width: pixels.width, height: pixels.height, interlaced: true) { x, y in
            let p = pixels[x, y]
            return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
        })
    }

    func decodeCode(_ bytes: [UInt8]) -> WebImageError.Code? {
        do {
            _ = try coder.decode(Data(bytes))
            return nil
        } catch let error as WebImageError {
            return error.code
        } catch {
            return WebImageError.Code(rawValue: "untyped")
        }
    }

    @Test("No IEND, or IEND cut anywhere: the complete image decodes", arguments: [false, true])
    func missingOrCutIEND(interlaced: Bool) throws {
        let (bytes, pixels, idatEnd) = try Self.encoded(interlaced: interlaced)
        #expect(bytes.count == idatEnd + 12)
        for length in idatEnd..<bytes.count {
            let image = try coder.decode(Data(bytes.prefix(length)))
            #expect(image.pixels == pixels, "cut at \(length) of \(bytes.count)")
        }
    }

    @Test("A text chunk after the image data, cut anywhere (and no IEND): the image decodes")
    func cutTextChunkAfterImageData() throws {
        let (bytes, pixels, idatEnd) = try Self.encoded()
        let text = TestPNG.chunk("tEXt", Array("Comment\u{0}written after the pixels".utf8))
        let withText = Array(bytes[..<idatEnd]) + text + Array(bytes[idatEnd...])
        #expect(try coder.decode(Data(withText)).pixels == pixels)
        for length in idatEnd..<(idatEnd + text.count) {
            let image = try coder.decode(Data(withText.prefix(length)))
            #expect(image.pixels == pixels, "cut at \(length)")
        }
    }

    @Test("A cut inside the image data is still badImageData", arguments: [false, true])
    func cutImageDataIsAnError(interlaced: Bool) throws {
        let (bytes, _, idatEnd) = try Self.encoded(interlaced: interlaced)
        let firstIDAT = try #require(TestPNG.chunkList(bytes).first { $0.type == "IDAT" })
        // Every cut before the end of the last IDAT chunk's data (its CRC follows).
        for length in stride(from: firstIDAT.start, to: idatEnd - 4, by: 7) {
            #expect(decodeCode(Array(bytes.prefix(length))) == .badImageData, "cut at \(length) of \(bytes.count)")
        }
        // The end of the zlib stream (its Adler-32 checksum) is part of the image data.
        for length in (idatEnd - 12)..<(idatEnd - 4) {
            #expect(decodeCode(Array(bytes.prefix(length))) == .badImageData, "cut at \(length) of \(bytes.count)")
        }
    }

    @Test("Cut inside the last image-data chunk's CRC, after its data: the image decodes", arguments: [false, true])
    func cutCRCAfterCompleteImageData(interlaced: Bool) throws {
        let (bytes, pixels, idatEnd) = try Self.encoded(interlaced: interlaced)
        for length in (idatEnd - 4)..<idatEnd {
            let image = try coder.decode(Data(bytes.prefix(length)))
            #expect(image.pixels == pixels, "cut at \(length) of \(bytes.count)")
        }
        // The CRC bytes that are there must still match the data.
        var damaged = Array(bytes.prefix(idatEnd - 2))
        damaged[damaged.count - 1] ^= 0x5A
        #expect(decodeCode(damaged) == .badImageData)
    }

    @Test("A zlib stream that ends short of the image is still badImageData, whatever follows")
    func shortZlibStreamIsAnError() throws {
        // Complete chunks whose zlib stream holds only half the rows.
        let rows = TestPNG.zlib([UInt8](repeating: 0, count: (1 + 4 * 8) * 4))
        let ihdr = TestPNG.ihdr(width: 8, height: 8)
        let file = [UInt8](TestPNG.file([ihdr, TestPNG.chunk("IDAT", rows)]))
        #expect(decodeCode(file) == .badImageData)
        #expect(decodeCode(Array(file.dropLast(2))) == .badImageData)
        #expect(decodeCode(file + TestPNG.chunk("IEND", [])) == .badImageData)
    }

    @Test("An APNG without IEND keeps its animation")
    func animationWithoutIEND() throws {
        let source = ImageFixtures.animation(frames: 3)
        let bytes = [UInt8](try coder.encode(source, as: .apng, options: ImageEncodingOptions()))
        let cut = Data(bytes.dropLast(12))
        let animation = try #require(try coder.decode(cut).animation)
        #expect(animation.frameCount == 3)
        for index in 0..<3 {
            #expect(try animation.frame(at: index).pixels == ImageFixtures.movingSquare(index: index))
        }
    }
}

extension TestPNG {
    /// The chunks of a PNG stream (type and byte range), stopping at the first incomplete one.
    static func chunkList(_ bytes: [UInt8]) -> [(type: String, start: Int, end: Int)] {
        var result: [(type: String, start: Int, end: Int)] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let end = offset + 12 + length
            guard end <= bytes.count else { break }
            result.append((String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self), offset, end))
            offset = end
        }
        return result
    }
}
