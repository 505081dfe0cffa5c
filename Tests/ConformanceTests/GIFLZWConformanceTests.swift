import Foundation
import Testing
import WebImage
import WebImageCodecs

/// Our LZW decoder against giflib on every GIF of the corpus (valid, lenient and broken): every
/// frame's indices and colour table, every composited frame's RGBA bytes, and the first frame cut
/// short as incremental decoding sees it must be identical (`GIFLZWDifferential`). Skipped like the
/// rest of the suite, loudly, when the corpus is absent.
@Suite("Corpus GIF: our LZW decoder against giflib", .corpusAvailable)
struct GIFLZWConformanceTests {
    @Test("Every frame of every corpus GIF is byte-identical to giflib's")
    func everyFrameMatchesGiflib() throws {
        guard let manifest = try CorpusManifest.required() else { return }
        var (files, frames) = (0, 0)
        var validities: [String: Int] = [:]
        for entry in manifest.files where entry.format == "gif" {
            let data = try Data(contentsOf: CorpusManifest.directory.appendingPathComponent(entry.file))
            if let difference = GIFLZWDifferential.firstDifference(
                in: data, maxPixelCount: ImageDecodingOptions().maxPixelCount, maxFrames: .max)
            {
                Issue.record("\(entry.file) (\(entry.expected_validity)): \(difference)")
            }
            files += 1
            frames += entry.frame_count ?? 0
            validities[entry.expected_validity, default: 0] += 1
        }
        #expect(files >= 40, "the corpus should hold dozens of GIFs, found \(files)")
        #expect(validities.keys.count >= 2, "valid and broken GIFs both compared: \(validities)")
        print("GIF LZW: \(files) corpus GIFs (\(validities)), \(frames) frames, identical to giflib")
    }
}
