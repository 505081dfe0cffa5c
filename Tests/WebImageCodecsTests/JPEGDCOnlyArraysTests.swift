import Foundation
import Testing
import WebImageTesting

@testable import WebImage
@testable import WebImageJPEG

/// A 1/8 decode of a progressive JPEG without its AC scans keeps only the DC coefficients of the
/// components whose blocks become one pixel (`dc_store.c`): the pixels stay the full decode's,
/// whatever the sampling, size or restart interval, and even when fresh memory is garbage
/// (glibc's `M_PERTURB` fills it). 4:2:0 files, whose chroma blocks become 2×2 pixels and read AC
/// coefficients, keep libjpeg's array for chroma.
@Suite("JPEG: DC-only coefficient arrays")
struct JPEGDCOnlyArraysTests {
    /// A noisy `width`×`height` picture as a binary PPM (cjpeg's input).
    static func ppm(width: Int, height: Int) -> Data {
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        var noise = SplitMix64(seed: 0x2545_F491_4F6C_DD1D)
        for y in 0..<height {
            for x in 0..<width {
                bytes += [UInt8(truncatingIfNeeded: x + y), UInt8(truncatingIfNeeded: noise.next() % 97 + 60), UInt8(truncatingIfNeeded: x * y)]
            }
        }
        return Data(bytes)
    }

    /// Runs `body` with glibc filling every fresh allocation with 0xA5 (`mallopt(M_PERTURB)`).
    static func withGarbageMemory<T>(_ body: () throws -> T) rethrows -> T {
        #if canImport(Glibc)
            let perturb: Int32 = -6  // M_PERTURB: fresh memory gets ~0xA5
            _ = GlibcExtensions.mallopt?(perturb, 0xA5)
            defer { _ = GlibcExtensions.mallopt?(perturb, 0) }
        #endif
        return try body()
    }

    @Test(
        "DC-only arrays for the components a block becomes one pixel of; the full decode's pixels",
        arguments: [
            ("2x1", 321, 203, [String](), 3), ("1x1", 321, 203, [], 3), ("grey", 321, 203, [], 1), ("2x2", 321, 203, [], 1),
            ("2x1", 40, 24, [], 3), ("2x2", 1500, 9, ["-restart", "1"], 1), ("1x2", 90, 1300, ["-restart", "3B"], 3),
        ] as [(String, Int, Int, [String], Int)])
    func samePixels(sampling: String, width: Int, height: Int, extra: [String], arrays: Int) throws {
        let arguments = (sampling == "grey" ? ["-grayscale"] : ["-sample", sampling]) + extra
        let data = try HighBitDepthFixtures.encoded(
            Self.ppm(width: width, height: height), tool: "cjpeg",
            ["-progressive", "-quality", "92"] + arguments + ["-outfile", "{out}", "{in}"], suffix: "jpg", inputSuffix: "ppm")
        let options = ImageDecodingOptions(
            thumbnailPixelSize: PixelSize(width: max(1, width / 8), height: max(1, height / 8)))
        #expect(try JPEGDecoder.plan(for: data, options: options).scaleNumerator == 1)
        // The decode reports its DC-only arrays only when it left scans out.
        var dcOnly = 0
        let skipping = try Self.withGarbageMemory {
            try JPEGDecoder.decode(data, options: options, leftOutScans: { dcOnly = $0 })
        }
        #expect(dcOnly == arrays)
        let full = try JPEGDecoder.decode(data, options: options, skippingUnusedScans: false)
        let same = skipping.pixels == full.pixels
        #expect(same, "the 1/8 decode without AC scans differs from the full decode")
    }
}
