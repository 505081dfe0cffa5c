import CacheBenchmarkSupport
import Foundation

/// `webimage-cache-bench [memory|lru|disk|sweep [COUNT]|all]`: prints the cache figures of issue 3
/// (memory hit/miss throughput on 1 and 2 threads, `CostLRU` hits as `webimage serve` makes them,
/// disk write/read of 10 KB, 100 KB and 1 MB entries with and without fsync, an expiry sweep over
/// 100,000 entries). Build in release:
/// `swift run -c release webimage-cache-bench`.
@main
struct CacheBenchCommand {
    static func main() async throws {
        let what = CommandLine.arguments.dropFirst().first ?? "all"
        if what == "memory" || what == "all" {
            for threads in [1, 2] {
                for hit in [true, false] {
                    var best = 0.0
                    for _ in 0..<5 {
                        best = max(best, CacheWorkloads.memoryThroughput(threads: threads, lookupsPerThread: 5_000_000, hit: hit))
                    }
                    print(String(format: "memory %@ threads=%d  %.2f M lookups/s (best of 5)", hit ? "hit " : "miss", threads, best / 1e6))
                }
            }
        }
        if what == "lru" || what == "all" {
            for threads in [1, 2] {
                var best = 0.0
                for _ in 0..<5 { best = max(best, CacheWorkloads.costLRUThroughput(threads: threads, lookupsPerThread: 5_000_000)) }
                print(String(format: "CostLRU hit threads=%d  %.2f M lookups/s (best of 5)", threads, best / 1e6))
            }
        }
        if what == "disk" || what == "all" {
            for (size, count) in [(10_000, 500), (100_000, 200), (1_000_000, 40)] {
                for sync in [true, false] {
                    let (writes, reads) = try await CacheWorkloads.diskWriteRead(size: size, count: count, synchronousWrites: sync)
                    print(String(
                        format: "disk %7d B fsync=%@  write %8.0f/s (%7.1f MB/s)  read %8.0f/s (%7.1f MB/s)  [%d entries]",
                        size, sync ? "on " : "off", writes, writes * Double(size) / 1e6, reads, reads * Double(size) / 1e6, count))
                }
            }
        }
        if what == "sweep" || what == "all" {
            let count = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 100_000 : 100_000
            let (seconds, removed) = try await CacheWorkloads.expirySweep(count: count, fresh: 1_000)
            print(String(format: "sweep  removed %d expired of %d entries in %.3f s (%.0f entries/s)", removed, count + 1_000, seconds, Double(removed) / seconds))
        }
    }
}
