import Foundation
import Testing
import WebImageTesting

@testable import WebImage
@testable import WebImageJPEG

/// A 1/8 decode of a progressive JPEG without its AC scans leaves libjpeg's coefficient buffer
/// unzeroed when every component's blocks become one pixel: the pixels stay the full decode's
/// even when fresh memory is garbage (glibc's `M_PERTURB` fills it), and 4:2:0 files, whose
/// chroma blocks become 2×2 pixels and read AC coefficients, keep the zeroing.
@Suite("JPEG: unzeroed coefficients of DC-only decodes")
struct JPEGUnzeroedCoefficientsTests {
    /// A noisy 321×203 picture as a binary PPM (cjpeg's input).
    static func ppm() -> Data {
        let (width, height) = (321, 203)
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                bytes += [UInt8(truncatingIfNeeded: x + y), UInt8(truncatingIfNeeded: state % 97 + 60), UInt8(truncatingIfNeeded: x * y)]
            }
        }
        return Data(bytes)
    }

    /// Runs `body` with glibc filling every fresh allocation with 0x5A (`mallopt(M_PERTURB)`).
    static func withGarbageMemory<T>(_ body: () throws -> T) rethrows -> T {
        #if canImport(Glibc)
            let perturb: Int32 = -6  // M_PERTURB: fresh memory gets ~0xA5
            _ = GlibcExtensions.mallopt?(perturb, 0xA5)
            defer { _ = GlibcExtensions.mallopt?(perturb, 0) }
        #endif
        return try body()
    }

    @Test(
        "every component DC-only: unzeroed, same pixels; 4:2:0: zeroed, same pixels",
        arguments: [("2x1", true), ("1x1", true), ("grey", true), ("2x2", false)])
    func samePixels(sampling: String, unzeroed: Bool) throws {
        let arguments = sampling == "grey" ? ["-grayscale"] : ["-sample", sampling]
        let data = try HighBitDepthFixtures.encoded(
            Self.ppm(), tool: "cjpeg", ["-progressive", "-quality", "92"] + arguments + ["-outfile", "{out}", "{in}"],
            suffix: "jpg", inputSuffix: "ppm")
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 40, height: 40))
        #expect(try JPEGDecoder.plan(for: data, options: options).scaleNumerator == 1)
        let (skipped, skipping) = try Self.withGarbageMemory {
            (try Self.decodedWithoutACScans(data), try JPEGDecoder.decode(data, options: options))
        }
        #expect(skipped == unzeroed)
        let full = try JPEGDecoder.decode(data, options: options, skippingUnusedScans: false)
        let same = skipping.pixels == full.pixels
        #expect(same, "the 1/8 decode without AC scans differs from the full decode")
    }

    /// Decodes `data` at 1/8 the way JPEGDecoder does without its unused AC scans; whether the
    /// coefficient buffer was left unzeroed.
    static func decodedWithoutACScans(_ data: Data) throws -> Bool {
        try data.withUnsafeBytes { bytes in
            let decompression = try JPEGDecompression(maxPixelCount: 1 << 24)
            _ = try decompression.readHeader(bytes)
            _ = try decompression.scaledSize(numerator: 1)
            let filtered = try #require(JPEGScanFilter.droppingACScans(of: decompression.dcOnlyComponents(), in: bytes))
            return try filtered.withUnsafeBytes { filteredBytes in
                let dcOnly = try JPEGDecompression(maxPixelCount: 1 << 24)
                _ = try dcOnly.readHeader(filteredBytes)
                dcOnly.disableBlockSmoothing()
                dcOnly.skipCoefficientZeroing()
                let size = try dcOnly.start(numerator: 1, cmyk: false)
                var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
                try pixels.withUnsafeMutableBufferPointer { try dcOnly.readPixels(into: $0, size: size) }
                try dcOnly.finish()
                return dcOnly.skippedCoefficientZeroing
            }
        }
    }
}
