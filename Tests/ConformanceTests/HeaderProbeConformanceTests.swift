import Foundation
import Testing
import WebImage
import WebImageCodecs

/// The header probe on every valid corpus file agrees with the manifest: dimensions, frame count
/// (the APNG default image outside the animation is not a frame, as in the decode check), loop
/// count of animations, and the orientation of JPEGs and TIFFs (EXIF) and AVIFs (irot/imir). Skipped like the rest of the suite when the
/// corpus is absent (`.corpusAvailable`).
@Suite("Corpus header probe", .corpusAvailable)
struct HeaderProbeConformanceTests {
    @Test("Headers of valid corpus files agree with the manifest")
    func headers() throws {
        guard let manifest = try CorpusManifest.required() else { return }
        let coders = ImageCodersManager.standard()
        var checked = 0
        var failures: [String] = []
        for entry in manifest.files where ["jpeg", "png", "apng", "gif", "webp", "tiff", "avif"].contains(entry.format) {
            guard entry.expected_validity == "valid" || entry.expected_validity == "apng_fallback_static",
                KnownDeviations.libraryLimit(entry) == nil
            else { continue }
            let data = try Data(contentsOf: CorpusManifest.directory.appendingPathComponent(entry.file))
            checked += 1
            do {
                let header = try coders.readHeader(data)
                if let problem = Self.compare(header, entry) { failures.append("\(entry.file): \(problem)") }
            } catch {
                failures.append("\(entry.file): \(error)")
            }
        }
        print("header probe: \(checked - failures.count) of \(checked) valid corpus files agree with the manifest")
        for failure in failures {
            Issue.record(Comment(rawValue: failure))
        }
    }

    @Test("Every corpus file, corrupt ones included, gives a header or a typed error")
    func hostileHeaders() throws {
        guard let manifest = try CorpusManifest.required() else { return }
        let coders = ImageCodersManager.standard()
        var read = 0
        var refused = 0
        for entry in manifest.files {
            let data = try Data(contentsOf: CorpusManifest.directory.appendingPathComponent(entry.file))
            do {
                _ = try coders.readHeader(data)
                read += 1
            } catch is WebImageError {
                refused += 1
            } catch {
                Issue.record("\(entry.file): readHeader threw \(type(of: error)), not WebImageError: \(error)")
            }
        }
        print("header probe on every corpus file: \(read) read, \(refused) refused with a typed error")
        #expect(read + refused == manifest.files.count)
    }

    static func compare(_ header: ImageHeader, _ entry: CorpusManifest.Entry) -> String? {
        if let w = entry.width, let h = entry.height, header.pixelSize != PixelSize(width: w, height: h) {
            return "size \(header.pixelSize), expected \(w)×\(h)"
        }
        let expectedFrames: Int
        if entry.expected_validity == "apng_fallback_static" {
            expectedFrames = 1
        } else {
            let separateDefault = entry.format == "apng" && entry.header?.default_image_is_first_frame == false
            let pillowFrames = entry.frame_count ?? 1
            expectedFrames = separateDefault && pillowFrames > 1 ? pillowFrames - 1 : pillowFrames
        }
        if header.frameCount != expectedFrames { return "\(header.frameCount) frames, expected \(expectedFrames)" }
        if header.frameCount > 1, header.loopCount != (entry.loop_count ?? 1) {
            return "loop count \(header.loopCount.map(String.init) ?? "none"), expected \(entry.loop_count ?? 1)"
        }
        if let orientation = KnownDeviations.expectedOrientation(entry), header.orientation?.rawValue != orientation {
            return "EXIF orientation \(header.orientation?.rawValue ?? 0), expected \(orientation)"
        }
        return nil
    }
}
