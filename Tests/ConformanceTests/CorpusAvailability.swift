import Foundation
import Testing

/// Whether the corpus suite runs. A fresh clone has no `../shared`, so without the corpus the suite
/// is skipped with a loud note, unless `WEBIMAGE_REQUIRE_CORPUS` is set (CI sets it): then it runs
/// and fails, so a missing corpus is never mistaken for a pass.
enum CorpusAvailability {
    /// `WEBIMAGE_REQUIRE_CORPUS` is set to anything but empty or `0`.
    static var isRequired: Bool {
        guard let value = ProcessInfo.processInfo.environment["WEBIMAGE_REQUIRE_CORPUS"] else { return false }
        return !value.isEmpty && value != "0"
    }

    /// The corpus's `manifest.json` exists.
    static var isPresent: Bool { FileManager.default.fileExists(atPath: CorpusManifest.manifestURL.path) }

    /// The note printed when the corpus is absent.
    static var absentNote: String {
        """
        ************************************************************************
        CORPUS ABSENT: no manifest.json at \(CorpusManifest.directory.path).
        The corpus conformance suite is \(isRequired ? "FAILING (WEBIMAGE_REQUIRE_CORPUS is set)" : "SKIPPED").
        Put ../shared beside the package or set WEBIMAGE_CORPUS to the corpus's
        public/ folder; set WEBIMAGE_REQUIRE_CORPUS=1 to fail instead of skipping.
        ************************************************************************
        """
    }

    /// Whether the suite should run; prints the note (once) when it is skipped.
    static func shouldRun() -> Bool {
        if isPresent || isRequired { return true }
        _ = printedSkipNote
        return false
    }

    /// Prints the note the first time it is read (the suite and each of its tests ask).
    private static let printedSkipNote: Void = print(absentNote)
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only when the corpus is present, or when `WEBIMAGE_REQUIRE_CORPUS` demands it.
    static var corpusAvailable: Self {
        .enabled("the corpus is absent (WEBIMAGE_CORPUS; WEBIMAGE_REQUIRE_CORPUS=1 fails instead)") {
            CorpusAvailability.shouldRun()
        }
    }
}
