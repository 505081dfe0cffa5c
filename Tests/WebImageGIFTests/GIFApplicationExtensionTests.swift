import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageGIF

@Suite("GIF colour profile and XMP extensions")
struct GIFApplicationExtensionTests {
    let coder = GIFCoder()

    static func decode(_ data: Data, policy: ColorPolicy) throws -> Image {
        var options = GIFTestFiles.straight
        options.colorPolicy = policy
        return try GIFCoder().decode(data, options: options)
    }

    /// A 4×1 GIF (global palette of 4) with `extensionBytes` spliced in before the image, or
    /// after it in place of the trailer when `atEnd`.
    static func gif(with extensionBytes: [UInt8], atEnd: Bool = false) throws -> Data {
        var bytes = try GIFWriter.write { writer in
            try writer.putScreen(width: 4, height: 1, palette: GIFTestFiles.palette)
            try writer.putImage(x: 0, y: 0, width: 4, height: 1, indices: [0, 1, 2, 3], palette: nil)
        }
        if atEnd {
            bytes.removeLast()  // the trailer
            bytes += extensionBytes
        } else {
            bytes.insert(contentsOf: extensionBytes, at: 13 + 3 * 4)
        }
        return Data(bytes)
    }

    /// An application extension's bytes: introducer, label, the identifier block, `data` as
    /// sub-blocks of `blockSize`, and the terminator unless `terminated` is false.
    static func application(_ identifier: String, _ data: [UInt8], blockSize: Int = 255, terminated: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [0x21, 0xFF, 11] + Array(identifier.utf8)
        for start in stride(from: 0, to: data.count, by: blockSize) {
            let block = data[start..<min(data.count, start + blockSize)]
            bytes += [UInt8(block.count)] + block
        }
        return terminated ? bytes + [0] : bytes
    }

    static let xmp = MetadataFixtures.xmp(orientation: 1, pixelSize: PixelSize(width: 48, height: 32))

    @Test("the profile and the XMP are written with giflib's extension blocks and read back by the decoder and the header reader")
    func roundTrip() throws {
        let profile = TestColorProfiles.displayP3
        let image = Image(
            pixels: ImageFixtures.gradient(width: 48, height: 32), colorProfile: profile, metadata: ImageMetadata(xmp: Self.xmp))
        let options = ImageEncodingOptions(metadataPolicy: .keepAll)
        let data = try coder.encode(image, as: .gif, options: options)
        let bytes = [UInt8](data)
        // ICCRGBG1 012 after its block length, the profile in sub-blocks of 255.
        let icc = try #require(bytes.firstRange(of: [0x21, 0xFF, 11] + Array("ICCRGBG1012".utf8)))
        #expect(bytes[icc.upperBound] == 255)
        // XMP Data XMP, the packet (as the policy writes it) raw, then the 258-byte magic trailer.
        let written = try #require(ImageMetadata.toWrite(for: image, options: options)?.xmp)
        let xmp = try #require(bytes.firstRange(of: [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + [UInt8](written)))
        #expect(Array(bytes[xmp.upperBound..<xmp.upperBound + 258]) == GIFApplicationExtensions.xmpTrailer)
        #expect(GIFApplicationExtensions.xmpTrailer.count == 258)

        let header = try coder.readHeader(data)
        #expect(header.colorProfile == profile)
        #expect(header.metadata == ImageMetadata(xmp: written))
        #expect(coder.readMetadata(data) == ImageMetadata(xmp: written))
        #expect(try Self.decode(data, policy: .keep).colorProfile == profile)
        #expect(try Self.decode(data, policy: .ignore).colorProfile == nil)
        var firstFrame = GIFTestFiles.straight
        firstFrame.firstFrameOnly = true
        #expect(try coder.decode(data, options: firstFrame).colorProfile == profile)
    }

    @Test("an XMP tiff:Orientation in a GIF is carried, never applied")
    func orientationIsNotApplied() throws {
        let pixels = ImageFixtures.gradient(width: 16, height: 8)
        let data = try GIFEncoder(dithering: false, quality: 1)
            .encode(Image(pixels: pixels), firstFrameOnly: false, xmp: MetadataFixtures.xmp(orientation: 8))
        #expect(coder.readMetadata(data)?.orientation == .left)
        let decoded = try coder.decode(data)
        #expect(decoded.orientation == .up && decoded.pixelSize == pixels.size)
        #expect(try coder.readHeader(data).orientation == .up)
    }

    @Test("without a profile or metadata nothing is written; a packet with a NUL byte is left out")
    func nothingToWrite() throws {
        let pixels = ImageFixtures.gradient(width: 16, height: 8)
        let plain = try coder.encode(Image(pixels: pixels), as: .gif, options: ImageEncodingOptions(metadataPolicy: .keepAll))
        #expect([UInt8](plain).firstRange(of: [0x21, 0xFF, 11]) == nil)
        #expect(GIFApplicationExtensions.xmpSubBlocks([0x3C, 0x00, 0x3E]) == nil)
        #expect(GIFApplicationExtensions.xmpSubBlocks([]) == nil)
        // Any text chains into the trailer and ends exactly at its end.
        for length in 1...300 {
            let packet = (0..<length).map { UInt8(1 + ($0 * 7919) % 255) }
            let blocks = try #require(GIFApplicationExtensions.xmpSubBlocks(packet))
            #expect(blocks.reduce(0) { $0 + 1 + $1.count } == length + 257)
        }
    }

    /// Malformed extensions: a truncated one before the image (no complete image: a typed error),
    /// others ignored with the image decoded.
    static let malformed: [(name: String, bytes: [UInt8], atEnd: Bool, decodes: Bool)] = {
        let profile = [UInt8](TestColorProfiles.displayP3.data)
        var huge = profile
        huge.replaceSubrange(0..<4, with: [0x7F, 0xFF, 0xFF, 0xFF])  // claims 2 GB
        var truncatedAtEnd = application("ICCRGBG1012", profile, terminated: false)
        truncatedAtEnd.removeLast(100)
        let cutTrailer = [UInt8](xmp) + GIFApplicationExtensions.xmpTrailer.prefix(200)
        let cutText = [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + [UInt8](xmp.prefix(500))
        return [
            ("profile cut in a sub-block, before the image", Array(application("ICCRGBG1012", profile).prefix(300)), false,
             false),
            ("profile cut in a sub-block, after the image", truncatedAtEnd, true, true),
            ("profile claiming 2 GB", application("ICCRGBG1012", huge), false, true),
            ("profile that is not ICC", application("ICCRGBG1012", Array(repeating: 0x41, count: 700)), false, true),
            ("grey profile", application("ICCRGBG1012", [UInt8](TestColorProfiles.linearGray.data)), false, true),
            ("empty profile extension", application("ICCRGBG1012", []), false, true),
            ("XMP without the magic trailer", application("XMP DataXMP", [UInt8](xmp)), false, true),
            ("XMP with a cut trailer", application("XMP DataXMP", cutTrailer, blockSize: 200), false, true),
            ("XMP cut in the text, after the image", cutText, true, true),
            ("identifier block of another length", [0x21, 0xFF, 8] + Array("ICCRGBG1".utf8) + [3, 1, 2, 3, 0], false, true),
        ]
    }()

    @Test("malformed extensions are ignored, or a typed error when no image is complete", arguments: 0..<malformed.count)
    func malformedExtensions(index: Int) throws {
        let (name, bytes, atEnd, decodes) = Self.malformed[index]
        let data = try Self.gif(with: bytes, atEnd: atEnd)
        guard decodes else {
            let error = try #require(throws: WebImageError.self, "\(name)") { try Self.decode(data, policy: .keep) }
            #expect(error.code == .badImageData, "\(name)")
            #expect(throws: WebImageError.self, "\(name)") { try coder.readHeader(data) }
            #expect(coder.readMetadata(data) == nil, "\(name)")
            return
        }
        let image = try Self.decode(data, policy: .keep)
        #expect(image.colorProfile == nil, "\(name)")
        #expect(image.pixels.bytes == GIFTestFiles.pixels(GIFTestFiles.palette, width: 4).bytes, "\(name)")
        let header = try coder.readHeader(data)
        #expect(header.colorProfile == nil && header.metadata == nil, "\(name)")
        #expect(coder.readMetadata(data) == nil, "\(name)")
    }

    @Test("a profile over the core's 16 MB limit is ignored without being copied")
    func profileOverTheLimit() throws {
        var profile = [UInt8](TestColorProfiles.displayP3.data)
        profile += [UInt8](repeating: 0, count: ColorProfile.maxByteCount + 1 - profile.count)
        let data = Data(try GIFWriter.write { writer in
            try writer.putScreen(width: 4, height: 1, palette: GIFTestFiles.palette)
            try writer.putColorProfile(profile)
            try writer.putImage(x: 0, y: 0, width: 4, height: 1, indices: [0, 1, 2, 3], palette: nil)
        })
        #expect(try Self.decode(data, policy: .keep).colorProfile == nil)
        #expect(try coder.readHeader(data).colorProfile == nil)
    }
}
