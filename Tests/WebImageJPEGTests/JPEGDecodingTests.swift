import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageJPEG

@Suite("JPEG decoding")
struct JPEGDecodingTests {
    let coder = JPEGCoder()

    @Test("recognises JPEG signatures only")
    func signatures() throws {
        #expect(coder.name == "jpeg")
        #expect(coder.canDecode(try JPEGTestData.gradientJPEG(width: 4, height: 4)))
        #expect(!coder.canDecode(Data([0xFF, 0xD8])))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        #expect(coder.canEncode(.jpeg))
        #expect(!coder.canEncode(.png))
    }

    @Test("decodes a hand-built greyscale JPEG exactly")
    func greyscale() throws {
        let image = try coder.decode(JPEGTestData.greyscaleJPEG, options: ImageDecodingOptions(alphaMode: .straight))
        #expect(image.pixelSize == PixelSize(width: 16, height: 8))
        #expect(image.format == .jpeg)
        #expect(!image.hasAlpha)
        for y in 0..<8 {
            for x in 0..<16 {
                let expected: UInt8 = x < 8 ? 159 : 128
                #expect(image.pixels[x, y] == RGBA8(r: expected, g: expected, b: expected, a: 255))
            }
        }
    }

    @Test("decodes in the requested alpha mode with the requested scale")
    func alphaModeAndScale() throws {
        let data = try JPEGTestData.gradientJPEG(width: 20, height: 10)
        let premultiplied = try coder.decode(data, options: ImageDecodingOptions(alphaMode: .premultiplied))
        let straight = try coder.decode(data, options: ImageDecodingOptions(scaleFactor: 2))
        #expect(premultiplied.pixels.alphaMode == .premultiplied)
        #expect(straight.pixels.alphaMode == .straight)
        #expect(premultiplied.pixels.bytes == straight.pixels.bytes)
        #expect(straight.scale == 2)
        #expect(straight.size == (width: 10, height: 5))
        #expect(straight.pixels.isOpaque)
    }

    @Test("a thumbnail has the exact target size", arguments: [
        (PixelSize(width: 64, height: 64), true, PixelSize(width: 64, height: 43)),
        (PixelSize(width: 64, height: 64), false, PixelSize(width: 64, height: 64)),
        (PixelSize(width: 100, height: 20), true, PixelSize(width: 30, height: 20)),
        (PixelSize(width: 37, height: 1000), true, PixelSize(width: 37, height: 25)),
        (PixelSize(width: 1000, height: 1000), true, PixelSize(width: 300, height: 200)),
    ])
    func thumbnail(box: PixelSize, preserveAspectRatio: Bool, expected: PixelSize) throws {
        let data = try JPEGTestData.gradientJPEG(width: 300, height: 200)
        let options = ImageDecodingOptions(thumbnailPixelSize: box, preserveAspectRatio: preserveAspectRatio)
        let image = try coder.decode(data, options: options)
        #expect(image.pixelSize == expected)
        #expect(image.originalPixelSize == PixelSize(width: 300, height: 200))
        // The thumbnail still looks like the gradient: red grows to the right.
        let left = image.pixels[0, expected.height / 2].r
        let right = image.pixels[expected.width - 1, expected.height / 2].r
        #expect(Int(right) - Int(left) > 150)
    }

    @Test("a large JPEG decodes to a thumbnail at the smallest DCT scale, never at full size")
    func dctScaleForThumbnail() throws {
        let data = try JPEGTestData.gradientJPEG(width: 2048, height: 1536, quality: 0.5)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 256, height: 256))
        let plan = try JPEGDecoder.plan(for: data, options: options)
        #expect(plan.sourceSize == PixelSize(width: 2048, height: 1536))
        #expect(plan.targetSize == PixelSize(width: 256, height: 192))
        #expect(plan.scaleNumerator == 1)
        #expect(plan.decodedSize == PixelSize(width: 256, height: 192))
        let image = try coder.decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 256, height: 192))
        #expect(image.originalPixelSize == PixelSize(width: 2048, height: 1536))
    }

    @Test("a draft stops at the DCT scale: at least the box, the source's proportions, no resample")
    func draft() throws {
        let data = try JPEGTestData.gradientJPEG(width: 2000, height: 1500, quality: 0.5)
        var options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 200, height: 200))
        options.draft = true
        let image = try coder.decode(data, options: options)
        // 1/8 of 2000×1500 is 250×187.5: libjpeg's 250×188, kept as it is.
        #expect(image.pixelSize == PixelSize(width: 250, height: 188))
        #expect(image.originalPixelSize == PixelSize(width: 2000, height: 1500))
        // A stretched 200×200 box needs 200 rows: 2/8, with the source's proportions (the caller resizes).
        options.preserveAspectRatio = false
        #expect(try coder.decode(data, options: options).pixelSize == PixelSize(width: 500, height: 375))
        // A box the DCT cannot reduce for is decoded to the box as usual.
        options.thumbnailPixelSize = PixelSize(width: 1900, height: 1400)
        options.preserveAspectRatio = true
        #expect(try coder.decode(data, options: options).pixelSize == PixelSize(width: 1867, height: 1400))
        // The byte limit wins over the draft.
        options.thumbnailPixelSize = PixelSize(width: 200, height: 200)
        options.scaleDownLimitBytes = 200 * 150 * 4
        #expect(try coder.decode(data, options: options).pixelSize == PixelSize(width: 200, height: 150))
        // Without a thumbnail box there is nothing to draft.
        options = ImageDecodingOptions()
        options.draft = true
        #expect(try coder.decode(data, options: options).pixelSize == PixelSize(width: 2000, height: 1500))
    }

    @Test("the DCT scale is the smallest N/8 that still covers the target")
    func scaleChoice() {
        let source = PixelSize(width: 1000, height: 750)
        #expect(JPEGScale.numerator(for: source, target: source) == 8)
        #expect(JPEGScale.numerator(for: source, target: PixelSize(width: 125, height: 93)) == 1)
        // 1/8 of 750 is 93.75 rows: libjpeg would output 94, but with less than 94 rows of detail.
        #expect(JPEGScale.numerator(for: source, target: PixelSize(width: 125, height: 94)) == 2)
        #expect(JPEGScale.numerator(for: source, target: PixelSize(width: 126, height: 94)) == 2)
        #expect(JPEGScale.numerator(for: source, target: PixelSize(width: 500, height: 375)) == 4)
        #expect(JPEGScale.numerator(for: source, target: PixelSize(width: 501, height: 10)) == 5)
        // Stretched targets: both dimensions must be covered.
        #expect(JPEGScale.numerator(for: source, target: PixelSize(width: 10, height: 700)) == 8)
        // Images decoded at their own size are never DCT-scaled, however small.
        for side in 1...16 {
            let small = PixelSize(width: side, height: side)
            #expect(JPEGScale.numerator(for: small, target: small) == 8)
        }
        #expect(JPEGScale.scaledSize(of: PixelSize(width: 17, height: 9), numerator: 1) == PixelSize(width: 3, height: 2))
        #expect(JPEGScale.scaledSize(of: source, numerator: 3) == PixelSize(width: 375, height: 282))
    }

    @Test("the scale-down limit bounds the decoded bytes")
    func scaleDownLimit() throws {
        let data = try JPEGTestData.gradientJPEG(width: 400, height: 300)
        let limit = 400 * 300 * 4 / 4
        let options = ImageDecodingOptions(scaleDownLimitBytes: limit)
        let plan = try JPEGDecoder.plan(for: data, options: options)
        #expect(plan.targetSize == PixelSize(width: 200, height: 150))
        #expect(plan.scaleNumerator == 4)
        let image = try coder.decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 200, height: 150))
        #expect(image.pixels.bytes.count <= limit)
        #expect(image.originalPixelSize == PixelSize(width: 400, height: 300))
    }

    @Test("a header over the pixel limit throws tooLarge before decoding")
    func pixelLimit() throws {
        let small = try JPEGTestData.gradientJPEG(width: 8, height: 8)
        let huge = JPEGTestData.patchingFrameHeader(of: small, width: 20000, height: 20000)
        let error = try #require(throws: WebImageError.self) { try coder.decode(huge) }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("20000"))

        let limited = ImageDecodingOptions(maxPixelCount: 63)
        #expect(throws: WebImageError.self) { try coder.decode(small, options: limited) }
        #expect(try coder.decode(small, options: ImageDecodingOptions(maxPixelCount: 64)).pixelSize.width == 8)
    }

    @Test("a zero height (DNL) header is bad data")
    func zeroHeight() throws {
        let small = try JPEGTestData.gradientJPEG(width: 8, height: 8)
        let error = try #require(throws: WebImageError.self) {
            try coder.decode(JPEGTestData.patchingFrameHeader(of: small, width: 8, height: 0))
        }
        #expect(error.code == .badImageData)
    }

    @Test("truncated data throws badImageData", arguments: [0.2, 0.5, 0.9, 0.995])
    func truncated(fraction: Double) throws {
        let data = try JPEGTestData.gradientJPEG(width: 64, height: 48)
        let cut = data.prefix(Int(Double(data.count) * fraction))
        let error = try #require(throws: WebImageError.self) { try coder.decode(cut) }
        #expect(error.code == .badImageData)
        #expect(error.message.hasPrefix("JPEG"))
    }

    @Test("corruption in the markers after the last scan is reported")
    func corruptionAfterScan() throws {
        let data = try JPEGTestData.gradientJPEG(width: 16, height: 16)
        var bytes = [UInt8](data)
        #expect(bytes.suffix(2) == [0xFF, 0xD9])
        // A second frame header between the scan and EOI: libjpeg finds it while finishing.
        bytes.insert(contentsOf: JPEGTestData.segment(0xC0, [8, 0, 16, 0, 16, 1, 1, 0x11, 0]), at: bytes.count - 2)
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(bytes)) }
        #expect(error.code == .badImageData)
    }

    @Test("bytes after EOI are ignored")
    func trailingBytes() throws {
        let data = try JPEGTestData.gradientJPEG(width: 16, height: 16)
        let reference = try coder.decode(data)
        let padded = try coder.decode(data + Data(repeating: 0xAB, count: 100))
        #expect(padded.pixels == reference.pixels)
    }

    @Test("garbage and empty data throw badImageData")
    func garbage() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15  // deterministic xorshift noise
        for length in [0, 1, 3, 10, 200, 5000] {
            let noise = (0..<length).map { _ in
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return UInt8(truncatingIfNeeded: state >> 32)
            }
            let data = Data(length >= 3 ? [0xFF, 0xD8, 0xFF] + noise.dropFirst(3) : noise)
            let error = try #require(throws: WebImageError.self) { try coder.decode(data) }
            #expect(error.code == .badImageData)
        }
    }

    @Test("an unsupported process (differential, SOF5) throws decodingFailed")
    func unsupportedProcess() throws {
        let small = try JPEGTestData.gradientJPEG(width: 8, height: 8)
        let differential = JPEGTestData.patchingFrameHeader(of: small, width: 8, height: 8, marker: 0xC5)
        let error = try #require(throws: WebImageError.self) { try coder.decode(differential) }
        #expect(error.code == .decodingFailed)
    }
}
