import Foundation
import Testing
import WebImageCodecs
import WebImageServer
import WebImageTesting

/// Issue 26: the service strips metadata by default; `sm:0` keeps it without GPS, `kcr:1` keeps
/// the copyright, `serve --metadata` sets the default; each policy is its own cache entry.
@Suite("serve: metadata (sm, kcr, --metadata)")
struct MetadataPolicyServiceTests {
    /// A JPEG stored 800×600 with orientation 6 (displayed 600×800), a copyright and a GPS
    /// position in EXIF and XMP, and IPTC.
    static let photo: Data = MetadataFixtures.jpeg(
        Fixtures.jpeg, exif: MetadataFixtures.exif(orientation: 6, pixelSize: PixelSize(width: 800, height: 600)),
        xmp: MetadataFixtures.xmp(orientation: 6, pixelSize: PixelSize(width: 800, height: 600)), iptc: MetadataFixtures.iptc())

    static func exif(_ data: Data) throws -> ExifStructure? {
        try Fixtures.header(data).metadata?.exif.map { try ExifStructure(parsing: [UInt8]($0)) }
    }

    @Test("default strips; sm:0 keeps all but GPS; sm:1/kcr:1 keeps the copyright; each has its own ETag")
    func urlOptions() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/photo.jpg", response: .ok(Self.photo, contentType: "image/jpeg"))
            let stripped = try await harness.image("w:60", "/photo.jpg", ext: "jpg")
            #expect(stripped.status == 200, "\(stripped.text)")
            #expect(try Fixtures.header(stripped.body).metadata == nil)
            #expect(try Fixtures.header(stripped.body).pixelSize == PixelSize(width: 60, height: 80))

            let kept = try await harness.image("w:60/sm:0", "/photo.jpg", ext: "jpg")
            let keptExif = try #require(try Self.exif(kept.body))
            #expect(keptExif.gps == nil)
            #expect(keptExif.string(ExifStructure.Tag.copyright, in: keptExif.ifd0) == MetadataFixtures.copyright)
            #expect(keptExif.integer(ExifStructure.Tag.orientation, in: keptExif.ifd0) == 1)
            #expect(keptExif.integer(ExifStructure.Tag.pixelXDimension, in: keptExif.exif ?? []) == 60)
            #expect(keptExif.integer(ExifStructure.Tag.pixelYDimension, in: keptExif.exif ?? []) == 80)
            #expect(try Fixtures.header(kept.body).orientation == .up)
            #expect(kept.header("ETag") != stripped.header("ETag"))

            for options in ["w:60/sm:1/kcr:1", "w:60/kcr:1/strip_metadata:1", "w:60/keep_copyright:t"] {
                let copyright = try await harness.image(options, "/photo.jpg", ext: "webp")
                #expect(copyright.status == 200, "\(options): \(copyright.text)")
                let exif = try #require(try Self.exif(copyright.body), "\(options)")
                #expect(Set(exif.ifd0.map(\.tag)) == [ExifStructure.Tag.copyright, ExifStructure.Tag.artist], "\(options)")
                let xmp = String(decoding: try #require(try Fixtures.header(copyright.body).metadata?.xmp), as: UTF8.self)
                #expect(xmp.contains(MetadataFixtures.copyright) && !xmp.contains("GPS"), "\(options)")
            }
            let bad = try await harness.image("w:60/sm:maybe", "/photo.jpg", ext: "jpg")
            #expect(bad.status == 400)
        }
    }

    @Test("serve --metadata keep-all keeps GPS unless the URL says sm:1")
    func serviceDefault() async throws {
        try await ServiceHarness.with(configure: { $0.metadataPolicy = .keepAll }) { (harness) async throws in
            harness.origin.route("/photo.jpg", response: .ok(Self.photo, contentType: "image/jpeg"))
            let all = try await harness.image("w:60", "/photo.jpg", ext: "png")
            #expect(try #require(try Self.exif(all.body)).gps != nil)
            let kept = try await harness.image("w:60/sm:0", "/photo.jpg", ext: "png")
            #expect(try #require(try Self.exif(kept.body)).gps != nil)
            let stripped = try await harness.image("w:60/sm:1", "/photo.jpg", ext: "png")
            #expect(try Fixtures.header(stripped.body).metadata == nil)
        }
    }

    @Test("sm and kcr make a policy from the default, in any order", arguments: [
        (["sm:1", "kcr:1"], MetadataPolicy.strip, MetadataPolicy.copyright),
        (["kcr:1", "sm:1"], .keepAll, .copyright),
        (["sm:1", "kcr:0"], .copyright, .strip),
        (["sm:1"], .copyright, .copyright),
        (["sm:1"], .keepAll, .strip),
        (["sm:0"], .strip, .keep),
        (["sm:0", "kcr:1"], .keepAll, .keepAll),
        (["kcr:1"], .strip, .copyright),
        (["kcr:1"], .keep, .keep),
        (["kcr:0"], .copyright, .strip),
        ([], .keep, .keep),
    ])
    func table(segments: [String], defaultPolicy: MetadataPolicy, expected: MetadataPolicy) throws {
        let options = try ProcessingOptions(segments: segments.map { Substring($0) }, metadataPolicy: defaultPolicy)
        #expect(options.metadataPolicy == expected)
    }

    @Test("the canonical key names a policy other than strip")
    func canonicalKey() throws {
        #expect(!(try ProcessingOptions(segments: ["w:10"])).canonicalKey.contains("md:"))
        #expect(try ProcessingOptions(segments: ["w:10", "sm:1"]).canonicalKey == ProcessingOptions(segments: ["w:10"]).canonicalKey)
        #expect(try ProcessingOptions(segments: ["w:10", "sm:0"]).canonicalKey.hasSuffix("/md:keep"))
        #expect(try ProcessingOptions(segments: ["w:10", "kcr:1"]).canonicalKey.hasSuffix("/md:copyright"))
        #expect(try ProcessingOptions(segments: ["w:10"], metadataPolicy: .keepAll).canonicalKey.hasSuffix("/md:keep-all"))
    }
}
