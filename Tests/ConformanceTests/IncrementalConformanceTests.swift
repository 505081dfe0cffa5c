import Foundation
import Testing
import WebImage
import WebImageCodecs

/// Incremental decoding of every corpus file, fed in chunks of random sizes: only typed errors, and
/// every still image the one-shot decoder reads comes out with the same pixels once the incremental
/// decoder is complete. Skipped like the rest of the suite when the corpus is absent.
@Suite("Corpus incremental decoding", .corpusAvailable)
struct IncrementalConformanceTests {
    @Test("Every corpus file decoded incrementally gives the one-shot pixels or a typed error")
    func incremental() throws {
        guard let manifest = try CorpusManifest.required() else { return }
        let coders = ImageCodersManager.standard()
        var generator = SplitMix(state: 0x5EED)
        var (compared, identical, refused, incomplete) = (0, 0, 0, 0)
        for entry in manifest.files where ["jpeg", "png", "apng", "gif", "webp"].contains(entry.format) {
            let data = try Data(contentsOf: CorpusManifest.directory.appendingPathComponent(entry.file))
            let decoder = coders.makeIncrementalDecoder(options: ImageDecodingOptions())
            var last: Image?
            do {
                var (offset, chunks) = (0, 0)
                while offset < data.count {
                    let end = min(data.count, offset + 1 + Int(generator.next() % 8192))
                    try decoder.append(data.subdata(in: offset..<end))
                    // An image now and then (each is a full render), and always at the end.
                    chunks += 1
                    if chunks % 8 == 0 || end == data.count, let image = try decoder.currentImage() { last = image }
                    offset = end
                }
            } catch is WebImageError {
                refused += 1
                continue
            } catch {
                Issue.record("\(entry.file): \(type(of: error)), not WebImageError: \(error)")
                continue
            }
            guard decoder.isComplete else {
                incomplete += 1
                continue
            }
            // Stills only: an animation's last preview is its last frame, not the poster.
            guard let oneShot = try? coders.decode(data), oneShot.animation == nil || entry.format == "apng" else { continue }
            compared += 1
            if last?.pixels == oneShot.pixels {
                identical += 1
            } else {
                Issue.record("\(entry.file): the incremental decode differs from the one-shot decode")
            }
        }
        print(
            "incremental: \(identical) of \(compared) complete still files give the one-shot pixels; "
                + "\(refused) refused with a typed error, \(incomplete) never complete")
    }
}

/// A deterministic generator for chunk sizes.
private struct SplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
