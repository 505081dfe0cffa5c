import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageJPEG

/// Progressive JPEGs decoded at 1/8 without the AC scans they do not use: the same pixels as the
/// full decode, and every malformed stream left to the full decode.
@Suite("JPEG: unused progressive scans")
struct JPEGScanFilterTests {
    /// A gradient with deterministic noise, so that every AC scan carries data.
    static func photoLike(width: Int, height: Int, progressive: Bool = true) throws -> Data {
        var pixels = ImageFixtures.gradient(width: width, height: height)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                var pixel = pixels[x, y]
                pixel.g = UInt8(truncatingIfNeeded: Int(pixel.g) / 2 + Int(state % 128))
                pixel.b = UInt8(truncatingIfNeeded: (x * y) % 256)
                pixels[x, y] = pixel
            }
        }
        return try JPEGCoder().encode(
            Image(pixels: pixels), as: .jpeg, options: ImageEncodingOptions(quality: 0.92, progressive: progressive))
    }

    @Test(
        "1/8 decodes without the unused AC scans give the full decode's pixels",
        arguments: [(203, 157, 25), (640, 480, 80), (1000, 64, 125), (17, 9, 2)])
    func samePixels(width: Int, height: Int, box: Int) throws {
        let data = try Self.photoLike(width: width, height: height)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: box, height: box))
        #expect(try JPEGDecoder.plan(for: data, options: options).scaleNumerator == 1)
        let skipping = try JPEGDecoder.decode(data, options: options)
        let full = try JPEGDecoder.decode(data, options: options, skippingUnusedScans: false)
        #expect(skipping.pixels == full.pixels)
        #expect(skipping.originalPixelSize == PixelSize(width: width, height: height))
        // The scans really were left out: our encoder writes 4:2:0, so luma's AC scans go (chroma,
        // upsampled by libjpeg's 2×2 inverse DCT, keeps its own).
        let filtered = try #require(Self.filtered(data, numerator: 1))
        #expect(filtered.count < (width * height > 10_000 ? data.count * 3 / 4 : data.count))
    }

    @Test("larger scales and baseline files are decoded as they are")
    func onlyWhereItHelps() throws {
        let progressive = try Self.photoLike(width: 256, height: 256)
        // At 2/8 luma blocks are 2×2 pixels and need their AC coefficients.
        #expect(Self.filtered(progressive, numerator: 2) == nil)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64))
        #expect(try JPEGDecoder.decode(progressive, options: options).pixels
            == JPEGDecoder.decode(progressive, options: options, skippingUnusedScans: false).pixels)
        let baseline = try Self.photoLike(width: 256, height: 256, progressive: false)
        #expect(Self.filtered(baseline, numerator: 1) == nil)
    }

    @Test("truncated and corrupt progressive files still fail as before", arguments: [0.3, 0.6, 0.9, 0.999])
    func truncated(fraction: Double) throws {
        let data = try Self.photoLike(width: 320, height: 240)
        let cut = data.prefix(Int(Double(data.count) * fraction))
        #expect(Self.filtered(cut, numerator: 1) == nil)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 40, height: 40))
        let error = try #require(throws: WebImageError.self) { try JPEGDecoder.decode(cut, options: options) }
        #expect(error.code == .badImageData)
    }

    @Test("malformed streams are left to libjpeg")
    func malformed() throws {
        let data = [UInt8](try Self.photoLike(width: 64, height: 64))
        let everything: Set<UInt8> = [1, 2, 3]
        func filter(_ bytes: [UInt8]) -> [UInt8]? {
            bytes.withUnsafeBytes { JPEGScanFilter.droppingACScans(of: everything, in: $0) }
        }
        #expect(filter(data) != nil)
        #expect(filter([]) == nil)
        #expect(filter([0xFF, 0xD8, 0xFF, 0xD9]) == nil)
        // A segment length running past the end.
        var long = data
        long[4] = 0xFF
        long[5] = 0xFF
        #expect(filter(long) == nil)
        // A scan header cut to its length field at the very end, and a frame header too short.
        let sos = data.indices.dropLast().first { data[$0] == 0xFF && data[$0 + 1] == 0xDA }!
        #expect(filter(Array(data[..<sos]) + [0xFF, 0xDA, 0x00, 0x02]) == nil)
        let sof = data.indices.dropLast().first { data[$0] == 0xFF && data[$0 + 1] == 0xC2 }!
        #expect(filter(Array(data[..<sof]) + [0xFF, 0xC2, 0x00, 0x02] + Array(data[sof...])) == nil)
        // A restart marker between segments.
        #expect(filter([0xFF, 0xD8, 0xFF, 0xD0] + data.dropFirst(2)) == nil)
        // A baseline frame header after the progressive one (libjpeg reports it while finishing).
        var twoFrames = data
        twoFrames.insert(contentsOf: JPEGTestData.segment(0xC0, [8, 0, 16, 0, 16, 1, 1, 0x11, 0]), at: twoFrames.count - 2)
        #expect(filter(twoFrames) == nil)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 8, height: 8))
        #expect(throws: WebImageError.self) { try JPEGDecoder.decode(Data(twoFrames), options: options) }
        // Every prefix is incomplete: each one is left to libjpeg (and read within its bounds).
        for cut in 0..<data.count where filter(Array(data[..<cut])) != nil {
            Issue.record("a prefix of \(cut) bytes was filtered")
        }
        // Nothing to drop.
        #expect(data.withUnsafeBytes { JPEGScanFilter.droppingACScans(of: [], in: $0) } == nil)
        // Random damage anywhere gives a typed error or an image, never a crash.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<200 {
            var damaged = data
            for _ in 0..<4 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                damaged[Int(state >> 33) % damaged.count] = UInt8(truncatingIfNeeded: state >> 20)
            }
            _ = filter(damaged)
            do {
                _ = try JPEGDecoder.decode(Data(damaged), options: options)
            } catch is WebImageError {}
        }
    }

    /// What the decoder would decode at `numerator`/8 for `data`: the filtered stream, or nil.
    static func filtered(_ data: Data, numerator: Int) -> [UInt8]? {
        data.withUnsafeBytes { bytes -> [UInt8]? in
            guard let decompression = try? JPEGDecompression(maxPixelCount: 1 << 30),
                (try? decompression.readHeader(bytes)) != nil,
                (try? decompression.scaledSize(numerator: numerator)) != nil
            else { return nil }
            return JPEGScanFilter.droppingACScans(of: decompression.dcOnlyComponents(), in: bytes)
        }
    }
}
