import Dispatch
import Foundation
import Testing
import WebImage
import WebImageCodecs

/// Runs every file of the public decoder corpus through the standard coders and checks the result
/// against the manifest (see ../shared/corpus/README.md).
///
/// Environment: `WEBIMAGE_CORPUS` overrides the corpus folder; `WEBIMAGE_CONFORMANCE_FORMATS`
/// (comma-separated, e.g. `png,apng`) limits the formats; `WEBIMAGE_CONFORMANCE_VERBOSE=1` prints
/// every file's outcome.
@Suite("Corpus conformance")
struct CorpusConformanceTests {
    static let supportedFormats = ["jpeg", "png", "apng", "gif", "webp", "unknown"]

    @Test("Every corpus file decodes as the manifest says, or fails with a typed error")
    func corpus() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let manifest = try CorpusManifest.load() else {
            let banner = """
                ************************************************************************
                CORPUS ABSENT: no manifest.json at \(CorpusManifest.directory.path).
                The conformance suite did NOT run. Put ../shared beside the package or
                set WEBIMAGE_CORPUS to the corpus's public/ folder.
                ************************************************************************
                """
            print(banner)
            if environment["WEBIMAGE_CONFORMANCE_OPTIONAL"] != "1" {
                Issue.record("corpus absent at \(CorpusManifest.directory.path)")
            }
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
