import Foundation
import WebImage
import WebImageCodecs
import WebImageTesting

/// Drives the metadata path with the input as an EXIF structure, an XMP packet and IPTC records:
/// our readers and editors under every policy, then the blocks embedded in a JPEG and decoded
/// through the standard coders, and the input read as a TIFF file's metadata.
///
/// The contracts: every failure is a typed ``WebImage/WebImageError``; what the editors write
/// reads again (an EXIF structure with the same entries, an XMP packet, the same IPTC records);
/// metadata never makes a decode fail or change its size.
enum MetadataExercise {
    static let coders = ImageCodersManager.standard()
    static let jpeg: Data =
        (try? coders.encode(Image(pixels: ImageFixtures.gradient(width: 8, height: 6)), as: .jpeg, options: .init())) ?? Data()

    static func run(_ input: Data) -> FuzzOutcome {
        let bytes = [UInt8](input)
        var parsed = false
        if let violation = exercise(exif: bytes, parsed: &parsed) ?? exercise(xmp: bytes, parsed: &parsed)
            ?? exercise(iptc: bytes, parsed: &parsed)
        {
            return .contractViolation(violation)
        }
        _ = TIFFFileMetadata.read(bytes)
        let source = ImageMetadata(exif: input, xmp: input, iptc: input)
        for policy in MetadataPolicy.allCases {
            _ = source.written(policy: policy, orientation: .up, pixelSize: PixelSize(width: 8, height: 6))
        }
        let file = MetadataFixtures.jpeg(jpeg, exif: input.prefix(60_000), xmp: input.prefix(60_000), iptc: input.prefix(60_000))
        var options = ImageDecodingOptions()
        options.metadataPolicy = .keepAll
        do {
            let image = try coders.decode(file, options: options)
            guard image.pixelSize == PixelSize(width: 8, height: 6) || image.pixelSize == PixelSize(width: 6, height: 8) else {
                return .contractViolation("metadata changed the decoded size to \(image.pixelSize)")
            }
            for format in [ImageFormat.jpeg, .png, .webp, .tiff] {
                _ = try coders.encode(image, as: format, options: ImageEncodingOptions(metadataPolicy: .keepAll))
            }
        } catch let error as WebImageError {
            return .contractViolation("metadata made a decode or encode fail: \(error)")
        } catch {
            return .contractViolation("threw \(type(of: error)), not WebImageError: \(error)")
        }
        return parsed ? .accepted : .rejected(.badImageData)
    }

    private static func exercise(exif bytes: [UInt8], parsed: inout Bool) -> String? {
        guard let structure = try? ExifStructure(parsing: bytes) else { return nil }
        parsed = true
        for policy in MetadataPolicy.allCases {
            var edited = structure
            edited.apply(policy)
            edited.setOrientation(.up)
            edited.setPixelSize(PixelSize(width: 8, height: 6))
            guard let again = try? ExifStructure(parsing: edited.serialized()) else {
                return "EXIF written under \(policy) does not read again"
            }
            func sorted(_ entries: [ExifStructure.Entry]?) -> [ExifStructure.Entry] { (entries ?? []).sorted { $0.tag < $1.tag } }
            // Equal tags keep their order (a stable sort), so duplicates compare too.
            guard sorted(again.ifd0) == sorted(edited.ifd0), sorted(again.exif) == sorted(edited.exif),
                sorted(again.gps) == sorted(edited.gps)
            else { return "EXIF written under \(policy) reads back other entries" }
        }
        return nil
    }

    private static func exercise(xmp bytes: [UInt8], parsed: inout Bool) -> String? {
        guard let packet = try? XMPPacket(parsing: bytes) else { return nil }
        parsed = true
        for policy in MetadataPolicy.allCases {
            guard let edited = packet.edited(policy: policy, orientation: .up, pixelSize: PixelSize(width: 8, height: 6)) else {
                continue
            }
            guard (try? XMPPacket(parsing: edited)) != nil else { return "XMP edited under \(policy) does not read again" }
        }
        return nil
    }

    private static func exercise(iptc bytes: [UInt8], parsed: inout Bool) -> String? {
        guard let records = try? IPTCRecords(parsing: bytes) else { return nil }
        parsed = true
        guard (try? IPTCRecords(parsing: records.serialized())) == records || records.datasets.isEmpty else {
            return "IPTC records read back differently"
        }
        return nil
    }
}
