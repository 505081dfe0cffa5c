/// Counts outcomes per format and prints the summary lines.
struct ConformanceTally {
    private struct Counts {
        var passed: [String: Int] = [:]
        var failed: [String: Int] = [:]
        var decodedTolerated: [String: Int] = [:]
        var rejectedTolerated: [String: Int] = [:]
    }

    private var byFormat: [String: Counts] = [:]
    private var skipped: [String: Int] = [:]
    private(set) var passed = 0
    private(set) var failed = 0

    mutating func record(_ entry: CorpusManifest.Entry, _ outcome: ConformanceOutcome) {
        let validity = entry.expected_validity
        var counts = byFormat[entry.format, default: Counts()]
        switch outcome {
        case .passed:
            counts.passed[validity, default: 0] += 1
            passed += 1
        case .tolerated(_, let decoded):
            if decoded { counts.decodedTolerated[validity, default: 0] += 1 } else {
                counts.rejectedTolerated[validity, default: 0] += 1
            }
            passed += 1
        case .failed:
            counts.failed[validity, default: 0] += 1
            failed += 1
        }
        byFormat[entry.format] = counts
    }

    mutating func skip(_ format: String) { skipped[format, default: 0] += 1 }

    func summaryLines() -> [String] {
        var lines: [String] = []
        for format in byFormat.keys.sorted() {
            let counts = byFormat[format]!
            let validities = Set(counts.passed.keys).union(counts.failed.keys).union(counts.decodedTolerated.keys)
                .union(counts.rejectedTolerated.keys).sorted()
            let parts = validities.map { validity -> String in
                let ok = counts.passed[validity, default: 0]
                let bad = counts.failed[validity, default: 0]
                let decoded = counts.decodedTolerated[validity, default: 0]
                let rejected = counts.rejectedTolerated[validity, default: 0]
                var part = "\(validity) \(ok + decoded + rejected)/\(ok + decoded + rejected + bad)"
                if validity == "valid" && rejected > 0 {
                    part += " (\(rejected) limited by the installed libraries)"
                } else if decoded + rejected > 0 {
                    part += " (\(decoded) decoded, \(rejected) rejected)"
                }
                return part
            }
            lines.append("conformance \(format): " + parts.joined(separator: ", "))
        }
        if !skipped.isEmpty {
            let list = skipped.keys.sorted().map { "\($0) \(skipped[$0]!)" }.joined(separator: ", ")
            lines.append("conformance skipped (no WebImage coder for the format yet): \(list)")
        }
        return lines
    }
}
