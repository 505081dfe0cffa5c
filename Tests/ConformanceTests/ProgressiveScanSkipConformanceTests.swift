import Foundation
import Testing
import WebImage

@testable import WebImageJPEG

/// Every progressive JPEG of the corpus (valid, lenient and corrupt) decoded at 1/8 with and without
/// its unused AC scans: the same pixels, or the same typed error. Skipped like the rest of the
/// suite when the corpus is absent.
@Suite("Corpus: progressive JPEGs without their unused scans", .corpusAvailable)
struct ProgressiveScanSkipConformanceTests {
    @Test("1/8 decodes of every progressive corpus JPEG match the full decode")
    func sameOutcome() throws {
        guard let manifest = try CorpusManifest.required() else { return }
        var (images, errors) = (0, 0)
        for entry in manifest.files where entry.format == "jpeg" && (entry.jpeg_process ?? "").hasPrefix("progressive") {
            let data = try Data(contentsOf: CorpusManifest.directory.appendingPathComponent(entry.file))
            let width = max(1, (entry.width ?? 8) / 8)
            let height = max(1, (entry.height ?? 8) / 8)
            let options = ImageDecodingOptions(
                thumbnailPixelSize: PixelSize(width: width, height: height), preserveAspectRatio: false)
            let skipping = Result { try JPEGDecoder.decode(data, options: options) }
            let full = Result { try JPEGDecoder.decode(data, options: options, skippingUnusedScans: false) }
            switch (skipping, full) {
            case (.success(let a), .success(let b)):
                images += 1
                let same = a.pixels == b.pixels
                #expect(same, "\(entry.file): the pixels differ")
            case (.failure(let a), .failure(let b)):
                errors += 1
                #expect((a as? WebImageError)?.code == (b as? WebImageError)?.code, "\(entry.file): \(a) vs \(b)")
            default:
                Issue.record("\(entry.file): skipping gives \(skipping), the full decode \(full)")
            }
        }
        print("progressive scan skipping: \(images) images identical, \(errors) files refused alike")
        #expect(images > 0)
    }
}
