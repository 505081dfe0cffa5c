import Dispatch
import Foundation
import Testing
import WebImage
import WebImageCodecs

/// Runs every file of the public decoder corpus through the standard coders and checks the result
/// against the manifest (see ../shared/corpus/README.md).
///
/// Environment: `WEBIMAGE_CORPUS` overrides the corpus folder; without a corpus the suite is
/// skipped with a note, unless `WEBIMAGE_REQUIRE_CORPUS=1` (set by `.ci/run`) makes it fail;
/// `WEBIMAGE_CONFORMANCE_FORMATS` (comma-separated, e.g. `png,apng`) limits the formats;
/// `WEBIMAGE_CONFORMANCE_VERBOSE=1` prints every file's outcome.
@Suite("Corpus conformance", .corpusAvailable)
struct CorpusConformanceTests {
    static let supportedFormats = ["jpeg", "png", "apng", "gif", "webp", "tiff", "avif", "unknown"]

    @Test("Every corpus file decodes as the manifest says, or fails with a typed error")
    func corpus() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let manifest = try CorpusManifest.load() else {
            // Only reached when WEBIMAGE_REQUIRE_CORPUS is set: otherwise `.corpusAvailable` skips.
            print(CorpusAvailability.absentNote)
            Issue.record("corpus absent at \(CorpusManifest.directory.path) and WEBIMAGE_REQUIRE_CORPUS is set")
            return
        }
        let formats = environment["WEBIMAGE_CONFORMANCE_FORMATS"].map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        } ?? Self.supportedFormats
        let verbose = environment["WEBIMAGE_CONFORMANCE_VERBOSE"] == "1"
        let coders = ImageCodersManager.standard()
        var tally = ConformanceTally()

        for entry in manifest.files {
            guard formats.contains(entry.format) else {
                if !Self.supportedFormats.contains(entry.format) { tally.skip(entry.format) }
                continue
            }
            let url = CorpusManifest.directory.appendingPathComponent(entry.file)
            let data = try Data(contentsOf: url)
            let outcome = ConformanceCheck(entry: entry, data: data, coders: coders).run()
            tally.record(entry, outcome)
            if verbose || outcome.isFailure {
                print("conformance \(outcome.isFailure ? "FAIL" : "ok  ") \(entry.file) [\(entry.expected_validity)] \(outcome.detail)")
            }
            if case .failed(let reason) = outcome {
                Issue.record("\(entry.file) [\(entry.expected_validity)]: \(reason)")
            }
        }
        for line in tally.summaryLines() { print(line) }
        print("\(tally.passed) passed, \(tally.failed) failed")
    }
}
