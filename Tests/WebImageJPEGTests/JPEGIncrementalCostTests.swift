import Foundation
import Testing
import WebImage
import WebImageJPEG
import WebImageTesting

/// The cost of incremental decoding beside a one-shot decode, printed (never asserted: timings
/// depend on the machine). Opt in with `WEBIMAGE_MEASURE_PROGRESSIVE=1`.
@Suite("JPEG: incremental decoding cost")
struct JPEGIncrementalCostTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["WEBIMAGE_MEASURE_PROGRESSIVE"] == "1"))
    func aFourMegapixelProgressiveJPEGFedIn64KBChunks() throws {
        let jpeg = try JPEGCoder().encode(
            Image(pixels: ProgressiveFixtures.texture(width: 2048, height: 2048)), as: .jpeg,
            options: ImageEncodingOptions(quality: 0.9, progressive: true))
        let chunks = stride(from: 0, to: jpeg.count, by: 65_536).map { jpeg.subdata(in: $0..<min(jpeg.count, $0 + 65_536)) }
        let clock = ContinuousClock()
        func best(_ body: () throws -> Void) rethrows -> Duration {
            var fastest = Duration.seconds(1000)
            for _ in 0..<3 { fastest = min(fastest, try clock.measure(body)) }
            return fastest
        }
        let oneShot = try best { _ = try JPEGCoder().decode(jpeg) }
        var previews = 0
        let fedOnly = try best {
            let decoder = JPEGCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
            for chunk in chunks { try decoder.append(chunk) }
            _ = try decoder.currentImage()
        }
        let withPreviews = try best {
            let decoder = JPEGCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
            previews = try ProgressiveFixtures.feed(chunks, to: decoder).count
        }
        // The old way: every chunk decoded from the start (what previews cost before).
        let fromScratch = best {
            var data = Data()
            for chunk in chunks {
                data.append(chunk)
                _ = try? JPEGCoder().decode(data)
            }
        }
        let seconds = { (d: Duration) in Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
        print(
            """
            progressive JPEG 2048×2048, \(jpeg.count) bytes, \(chunks.count) chunks of 64 KB, \
            \(ProgressiveFixtures.jpegScanStarts(jpeg).count) scans
            one-shot decode:                     \(oneShot)
            incremental, fed then one image:     \(fedOnly) (×\(String(format: "%.2f", seconds(fedOnly) / seconds(oneShot))))
            incremental, image per scan (\(previews)):  \(withPreviews) (×\(String(format: "%.2f", seconds(withPreviews) / seconds(oneShot))))
            whole data decoded at every chunk:   \(fromScratch) (×\(String(format: "%.2f", seconds(fromScratch) / seconds(oneShot))))
            """)
    }
}
