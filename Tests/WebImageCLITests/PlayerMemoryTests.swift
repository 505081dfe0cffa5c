import Foundation
import Testing
import WebImageTesting

/// Issue 12's memory point: a player cycling through a 100-frame 500×500 GIF with a 16 MB frame
/// pool (so it decodes every frame as it goes, evicting as it stores) stays within the budget
/// plus two canvases. Evicted frames go to the pixel storage pool and the next decode reuses
/// them; before, glibc kept the freed frames and the process grew 29 MB. Measured by the
/// `webimage-player-probe` child itself (anonymous resident memory at every emitted frame, from
/// after `malloc_trim` before playing); peak RSS from `webimage-peak-rss` is printed beside it.
/// Time is never asserted.
@Suite("The player's memory", .serialized, .timeLimit(.minutes(3)))
struct PlayerMemoryTests {
    /// `key=value` fields of the probe's report.
    static func fields(_ line: String) -> [String: Int] {
        var fields: [String: Int] = [:]
        for pair in line.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        return fields
    }

    /// Runs the probe with a 16 MB pool: its report and peak RSS.
    static func measure(in directory: URL) async throws -> (report: [String: Int], usage: ChildResourceUsage) {
        let probe = try BuiltProducts.executable(named: "webimage-player-probe")
        let usage = try await ChildResourceUsage.run(probe, ["4", "16", "20"], in: directory, limit: 120)
        #expect(usage.status == 0, "\(usage.stderr)")
        return (fields(usage.stdout), usage)
    }

    @Test("Playing with a 16 MB pool grows at most the budget plus two canvases")
    func playerStaysWithinItsBudget() async throws {
        try await withTemporaryDirectory { directory in
            var (report, usage) = try await Self.measure(in: directory)
            let limit = try #require(report["budget"]) + 2 * (try #require(report["canvas"]))
            // The figure includes the runtime's own memory, which a machine running every suite at
            // once moves by a few hundred kilobytes: a second measure decides before failing (a
            // player over its budget is over it in both).
            if let first = report["growth"], first > limit {
                print("player, 16 MB pool: first measure grew \(first) bytes, over \(limit); measuring again")
                (report, usage) = try await Self.measure(in: directory)
            }
            let growth = try #require(report["growth"], "\(usage.stdout)")
            print(
                String(
                    format: "player, 16 MB pool: grew %.1f MB (limit %.1f MB), %d frames, %d evictions, %d reused; peak RSS %.1f MB",
                    Double(growth) / 1e6, Double(limit) / 1e6, report["emitted"] ?? 0, report["evictions"] ?? 0,
                    report["reused"] ?? 0, usage.peakMegabytes))
            #expect((report["evictions"] ?? 0) > 0, "the pool must be too small for every frame")
            #expect(growth <= limit, "grew \(growth) bytes, over \(limit)")
        }
    }
}
