/// Decides which progress updates to report: at most one every `minimumInterval` of the total
/// (SDWebImage's `minimumProgressInterval`), and always the last one.
///
/// A pure value: feed it every update and report those it accepts; at the end, ``finalReportNeeded(receivedBytes:)``
/// says whether the last byte count still needs a report.
///
/// ```swift
/// var throttle = ProgressReportThrottle(minimumInterval: 0.1)   // every 10 % at most
/// if throttle.shouldReport(receivedBytes: n, expectedBytes: total) { report(n) }
/// ```
public struct ProgressReportThrottle: Sendable, Hashable {
    /// The smallest fraction of the total between two reports; 0 reports every update.
    public let minimumInterval: Double
    /// The byte count of the last accepted report, or nil before the first.
    public private(set) var lastReported: Int?

    /// A throttle reporting at most every `minimumInterval` (clamped to 0...1) of the total.
    public init(minimumInterval: Double) {
        self.minimumInterval = min(1, max(0, minimumInterval))
    }

    /// Whether to report an update; accepting it records it as the last report.
    /// Without a known total every update is reported.
    public mutating func shouldReport(receivedBytes: Int, expectedBytes: Int?) -> Bool {
        let accept: Bool
        if minimumInterval <= 0 || lastReported == nil {
            accept = true
        } else if let expectedBytes, expectedBytes > 0 {
            let delta = Double(receivedBytes - (lastReported ?? 0)) / Double(expectedBytes)
            accept = delta >= minimumInterval || receivedBytes >= expectedBytes
        } else {
            accept = true
        }
        if accept { lastReported = receivedBytes }
        return accept
    }

    /// Whether the final byte count still needs a report (the last callback always comes);
    /// returning true records it.
    public mutating func finalReportNeeded(receivedBytes: Int) -> Bool {
        guard lastReported != receivedBytes else { return false }
        lastReported = receivedBytes
        return true
    }
}
