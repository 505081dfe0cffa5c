import Foundation
import Testing
import WebImage
import WebImageCodecs
import WebImageTesting

/// Every output format that carries metadata, under every policy, from a JPEG whose EXIF, XMP and
/// IPTC state a GPS position, a copyright and orientation 6 (stored 64×32, displayed 32×64). GIF
/// carries XMP only.
@Suite("Metadata policies through every encoder")
struct MetadataPolicyTests {
    static let formats: [ImageFormat] = [.jpeg, .png, .webp, .tiff, .avif, .heic, .jpegXL, .gif]
    static let stored = PixelSize(width: 64, height: 32)
    static let displayed = PixelSize(width: 32, height: 64)

    static func source() throws -> (data: Data, pixels: PixelBuffer) {
        let pixels = ImageFixtures.gradient(width: stored.width, height: stored.height)
        let plain = try ImageCodersManager.standard().encode(Image(pixels: pixels), as: .jpeg, options: ImageEncodingOptions(quality: 0.95))
        let data = MetadataFixtures.jpeg(
            plain, exif: MetadataFixtures.exif(orientation: 6, pixelSize: stored), xmp: MetadataFixtures.xmp(orientation: 6, pixelSize: stored),
            iptc: MetadataFixtures.iptc())
        return (data, pixels)
    }

    static func carriesIPTC(_ format: ImageFormat) -> Bool { format == .jpeg || format == .tiff }
    static func carriesEXIF(_ format: ImageFormat) -> Bool { format != .gif }

    @Test("The source's metadata is read and cut to the decoding policy", arguments: MetadataPolicy.allCases)
    func decoding(policy: MetadataPolicy) throws {
        let coders = ImageCodersManager.standard()
        var options = ImageDecodingOptions()
        options.metadataPolicy = policy
        let image = try coders.decode(try Self.source().data, options: options)
        #expect(image.orientation == .right)
        guard policy != .strip else {
            #expect(image.metadata == nil)
            return
        }
        let exif = try ExifStructure(parsing: [UInt8](try #require(image.metadata?.exif)))
        #expect((exif.gps != nil) == (policy == .keepAll))
        #expect(exif.string(ExifStructure.Tag.copyright, in: exif.ifd0) == MetadataFixtures.copyright)
        let header = try coders.readHeader(try Self.source().data)
        #expect(header.metadata?.iptc != nil && header.metadata?.xmp != nil)
    }

    @Test("GPS only with keep-all, copyright kept, orientation applied once, dimensions as written", arguments: formats, MetadataPolicy.allCases)
    func encoding(format: ImageFormat, policy: MetadataPolicy) throws {
        let coders = ImageCodersManager.standard()
        let (data, pixels) = try Self.source()
        var decoding = ImageDecodingOptions()
        decoding.metadataPolicy = policy
        let image = try coders.decode(data, options: decoding)
        let written: Data
        do {
            written = try coders.encode(image, as: format, options: ImageEncodingOptions(quality: 0.9, metadataPolicy: policy))
        } catch let error as WebImageError where error.code == .unsupportedFormat {
            return  // HEIC without an HEVC encoder on this machine
        }

        // Our decoders: upright pixels, no orientation left to apply.
        let decoded = try coders.decode(written)
        #expect(decoded.orientation == .up)
        #expect(decoded.pixelSize == Self.displayed)
        #expect(ImageFixtures.meanAbsoluteDifference(decoded.pixels, pixels.oriented(.right)) < 8)
        let header = try coders.readHeader(written)
        #expect(header.orientation ?? .up == .up)

        let metadata = header.metadata
        guard policy != .strip else {
            #expect(metadata == nil)
            return
        }
        if Self.carriesEXIF(format) {
            let exif = try ExifStructure(parsing: [UInt8](try #require(metadata?.exif, "\(format) lost its EXIF")))
            #expect(exif.string(ExifStructure.Tag.copyright, in: exif.ifd0) == MetadataFixtures.copyright)
            #expect(exif.string(ExifStructure.Tag.artist, in: exif.ifd0) == MetadataFixtures.artist)
            #expect((exif.gps != nil) == (policy == .keepAll))
            // A TIFF's orientation is its own tag (libtiff writes 1), read as the image's, not as EXIF.
            if policy == .copyright {
                #expect(exif.exif == nil)
                #expect(exif.integer(ExifStructure.Tag.orientation, in: exif.ifd0) == nil)
            } else {
                #expect(exif.integer(ExifStructure.Tag.orientation, in: exif.ifd0) == (format == .tiff ? nil : 1))
                #expect(exif.integer(ExifStructure.Tag.pixelXDimension, in: exif.exif ?? []) == Self.displayed.width)
                #expect(exif.integer(ExifStructure.Tag.pixelYDimension, in: exif.exif ?? []) == Self.displayed.height)
            }
        } else {
            #expect(metadata?.exif == nil)
        }
        let xmp = String(decoding: try #require(metadata?.xmp, "\(format) lost its XMP"), as: UTF8.self)
        #expect(xmp.contains("GPS") == (policy == .keepAll))
        #expect(xmp.contains(MetadataFixtures.copyright))
        #expect(xmp.contains("<tiff:Orientation>") == (policy != .copyright))
        #expect(XMPPacket.orientation(in: Array(xmp.utf8)) ?? .up == .up)
        #expect(xmp.contains("<dc:creator>"))
        if policy != .copyright {
            #expect(xmp.contains("<exif:PixelXDimension>\(Self.displayed.width)<"))
        }
        if Self.carriesIPTC(format) {
            let iptc = try IPTCRecords(parsing: [UInt8](try #require(metadata?.iptc)))
            #expect(iptc.datasets.contains { $0.record == 2 && $0.dataset == 116 })
            #expect(iptc.datasets.contains { $0.record == 2 && $0.dataset == 90 } == (policy != .copyright))
        } else {
            #expect(metadata?.iptc == nil)
        }

        // Pillow, when installed, reads the same (GIF: no EXIF; Pillow 13 reads no GIF XMP).
        guard format != .heic, format != .jpegXL, let pillow = PillowMetadata.read(written) else { return }
        guard Self.carriesEXIF(format) else {
            #expect(pillow.displayedWidth == Self.displayed.width && pillow.displayedHeight == Self.displayed.height)
            #expect(pillow.orientation == nil && pillow.copyright == nil && !pillow.gps)
            return
        }
        #expect(pillow.displayedWidth == Self.displayed.width && pillow.displayedHeight == Self.displayed.height)
        #expect(pillow.copyright == MetadataFixtures.copyright)
        #expect(pillow.gps == (policy == .keepAll))
        #expect(pillow.orientation == (policy == .copyright && format != .tiff ? nil : 1))
        if let mentionsGPS = pillow.xmpMentionsGPS { #expect(mentionsGPS == (policy == .keepAll)) }
    }

    @Test("GIF carries the XMP only; a decode reads it under the decoding policy")
    func gifCarriesXMPOnly() throws {
        let coders = ImageCodersManager.standard()
        var decoding = ImageDecodingOptions()
        decoding.metadataPolicy = .keepAll
        let image = try coders.decode(try Self.source().data, options: decoding)
        let written = try coders.encode(image, as: .gif, options: ImageEncodingOptions(metadataPolicy: .keepAll))
        let header = try coders.readHeader(written)
        #expect(header.metadata?.exif == nil && header.metadata?.iptc == nil)
        #expect(header.metadata?.xmp.map { String(decoding: $0, as: UTF8.self).contains("GPS") } == true)
        decoding.metadataPolicy = .keep
        let back = try coders.decode(written, options: decoding)
        #expect(back.pixelSize == Self.displayed && back.orientation == .up)
        let xmp = String(decoding: try #require(back.metadata?.xmp), as: UTF8.self)
        #expect(!xmp.contains("GPS") && xmp.contains(MetadataFixtures.copyright))
        // Written again under copyright, only the rights survive.
        let rights = try coders.encode(back, as: .gif, options: ImageEncodingOptions(metadataPolicy: .copyright))
        let kept = String(decoding: try #require(try coders.readHeader(rights).metadata?.xmp), as: UTF8.self)
        #expect(kept.contains(MetadataFixtures.copyright) && !kept.contains("tiff:Orientation"))
    }

    @Test("exiftool, when installed, reads the kept profile of HEIC and GIF outputs and a GIF's XMP")
    func exiftoolReadsWhatWeWrite() throws {
        guard let exiftool = ExternalDecoder.find("exiftool") else { return }
        let coders = ImageCodersManager.standard()
        var decoding = ImageDecodingOptions()
        decoding.metadataPolicy = .keepAll
        let source = try coders.decode(try Self.source().data, options: decoding)
        let image = Image(pixels: source.pixels, colorProfile: TestColorProfiles.adobeRGB, metadata: source.metadata)
        let formats: [ImageFormat] = HEIFCoder.canEncodeHEIC ? [.gif, .heic] : [.gif]
        for format in formats {
            let written = try coders.encode(image, as: format, options: ImageEncodingOptions(metadataPolicy: .keep))
            let profile = ExternalDecoder.run(exiftool, ["-b", "-ICC_Profile", "-"], input: written)
            #expect(profile == TestColorProfiles.adobeRGB.data, "\(format)")
            let fields = ExternalDecoder.run(exiftool, ["-s3", "-XMP-dc:Rights", "-XMP-exif:GPSLongitude", "-"], input: written)
            let text = String(decoding: fields ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(text == MetadataFixtures.copyright, "\(format)")
        }
    }

    @Test("XMP tiff:Orientation is read where EXIF states none", arguments: [ImageFormat.jpeg, .png, .webp])
    func xmpOrientation(format: ImageFormat) throws {
        let coders = ImageCodersManager.standard()
        let pixels = ImageFixtures.gradient(width: 64, height: 32)
        // An image carrying only XMP with orientation 8, written by our encoders as-is (keep-all,
        // orientation left on the image so the encoder writes it).
        let image = Image(pixels: pixels, orientation: .left, metadata: ImageMetadata(xmp: MetadataFixtures.xmp(orientation: 8)))
        let encoder = try #require(coders.coders.last { $0.canEncode(format) })
        let written = try encoder.encode(image, as: format, options: ImageEncodingOptions(metadataPolicy: .keepAll))
        #expect(try coders.readHeader(written).metadata?.exif == nil)
        let decoded = try coders.decode(written)
        #expect(decoded.orientation == .left)
        #expect(try coders.readHeader(written).orientation == .left)
    }

    @Test("Animations keep their frames and carry the metadata", arguments: [ImageFormat.webp, .apng, .avif, .tiff, .jpegXL, .gif])
    func animated(format: ImageFormat) throws {
        let coders = ImageCodersManager.standard()
        let animation = ImageFixtures.animation(frames: 3)
        let image = Image(
            pixels: animation.pixels, animation: animation.animation,
            metadata: ImageMetadata(exif: MetadataFixtures.exif(orientation: 1), xmp: MetadataFixtures.xmp(orientation: 1)))
        let written = try coders.encode(image, as: format, options: ImageEncodingOptions(metadataPolicy: .keep))
        let header = try coders.readHeader(written)
        #expect(header.frameCount == 3)
        #expect(try coders.decode(written).animation?.frameCount == 3)
        guard Self.carriesEXIF(format) else {
            let xmp = String(decoding: try #require(header.metadata?.xmp), as: UTF8.self)
            #expect(xmp.contains(MetadataFixtures.copyright) && !xmp.contains("GPS"))
            return
        }
        let exif = try ExifStructure(parsing: [UInt8](try #require(header.metadata?.exif)))
        #expect(exif.string(ExifStructure.Tag.copyright, in: exif.ifd0) == MetadataFixtures.copyright)
        #expect(exif.gps == nil)
    }
}
