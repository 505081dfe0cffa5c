import Foundation
import Testing
import WebImageTesting

/// Issue 12's memory point: a player cycling through a 100-frame 500×500 GIF stays within its frame
/// pool's budget plus two canvases: the canvas being drawn and the frame being shown. With a 16 MB
/// pool it decodes every frame as it goes, evicting as it stores (evicted frames go to the pixel
/// storage pool and the next decode reuses them; before, glibc kept the freed frames and the
/// process grew 29 MB). With a budget of 0 it decodes each frame just in time: a frame shares the
/// GIF canvas, and the next draw copies the canvas into the storage the frame shown before gave
/// back (before, a third canvas). Measured by the `webimage-player-probe` child itself (anonymous
/// resident memory at every emitted frame, from after a warm-up of the runtime on a tiny GIF and
/// `malloc_trim`); peak RSS from `webimage-peak-rss` is printed beside it. The limit allows
/// 256 KiB beyond the pixels for the player's own small allocations (its task and streams,
/// malloc's per-thread caches, whole pages): a third canvas is a megabyte. Time is never asserted.
@Suite("The player's memory", .serialized, .timeLimit(.minutes(3)))
struct PlayerMemoryTests {
    /// Beyond the budget and the two canvases: the player's own small allocations.
    static let allowance = 256 << 10

    /// `key=value` fields of the probe's report.
    static func fields(_ line: String) -> [String: Int] {
        var fields: [String: Int] = [:]
        for pair in line.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        return fields
    }

    /// Runs the probe with a pool of `budget` MB: its report and peak RSS.
    static func measure(budget: Int, in directory: URL) async throws -> (report: [String: Int], usage: ChildResourceUsage) {
        let probe = try BuiltProducts.executable(named: "webimage-player-probe")
        let usage = try await ChildResourceUsage.run(probe, ["4", "\(budget)", "20"], in: directory, limit: 120)
        #expect(usage.status == 0, "\(usage.stderr)")
        return (fields(usage.stdout), usage)
    }

    @Test("Playing grows at most the frame pool's budget plus two canvases", arguments: [16, 0])
    func playerStaysWithinItsBudget(budgetMB: Int) async throws {
        try await withTemporaryDirectory { directory in
            var (report, usage) = try await Self.measure(budget: budgetMB, in: directory)
            let limit = try #require(report["budget"]) + 2 * (try #require(report["canvas"])) + Self.allowance
            // The figure includes the runtime's own memory, which a machine running every suite at
            // once moves by a few hundred kilobytes: a second measure decides before failing (a
            // player over its budget is over it in both).
            if let first = report["growth"], first > limit {
                print("player, \(budgetMB) MB pool: first measure grew \(first) bytes, over \(limit); measuring again")
                (report, usage) = try await Self.measure(budget: budgetMB, in: directory)
            }
            let growth = try #require(report["growth"], "\(usage.stdout)")
            print(
                String(
                    format: "player, %d MB pool: grew %.2f MB (limit %.2f MB), %d frames, %d evictions, %d reused; peak RSS %.1f MB",
                    budgetMB, Double(growth) / 1e6, Double(limit) / 1e6, report["emitted"] ?? 0, report["evictions"] ?? 0,
                    report["reused"] ?? 0, usage.peakMegabytes))
            if budgetMB > 0 { #expect((report["evictions"] ?? 0) > 0, "the pool must be too small for every frame") }
            #expect(growth <= limit, "grew \(growth) bytes, over \(limit)")
        }
    }
}
