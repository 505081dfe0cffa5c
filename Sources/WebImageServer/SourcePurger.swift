import Foundation
import WebImage
import WebImageDiskCache
import WebImageRedis

/// Removes what the service keeps of one source, its original and every result made from it, from
/// memory, the disk and Redis, counting what went in each.
///
/// Results are found by their keys' prefix (``CacheKeys/serviceResultPrefix(source:)``), the same
/// in every tier, so no index has to be kept in step across nodes: memory is walked, the disk
/// index is asked with one SQL query and Redis is walked with `SCAN … MATCH`. Each is O(entries in
/// the tier): fit for an operator's purge and for a source that changed, not for every request.
/// Memory and disk are this node's; Redis is the fleet's (the other nodes' memory and disks keep
/// their copies until their freshness ends, when they revalidate and find the change).
struct SourcePurger: Sendable {
    /// How many entries went from each tier.
    struct Removed: Sendable, Encodable, Equatable {
        var memory = 0
        var disk = 0
        var redis = 0
        var total: Int { memory + disk + redis }
    }

    let results: CostLRU<HashedKey, RenderedImage>
    let originals: CostLRU<HashedKey, SourceBytes>
    let disk: DiskCache?
    let redis: RedisImageCache?

    /// Removes every result of `source` and, when `original`, its original bytes.
    func purge(_ source: URL, original: Bool) async throws -> Removed {
        let prefix = CacheKeys.serviceResultPrefix(source: source)
        let sourceKey = CacheKeys.serviceSource(source)
        var removed = Removed()
        removed.memory = results.removeAll { $0.string.hasPrefix(prefix) }
        if original, originals.removeValue(forKey: HashedKey(sourceKey)) != nil { removed.memory += 1 }
        if let disk {
            removed.disk = try await disk.removeData(keysWithPrefix: prefix)
            if original, try await disk.metadata(forKey: sourceKey) != nil {
                try await disk.removeData(forKey: sourceKey)
                removed.disk += 1
            }
        }
        if let redis {
            removed.redis = try await redis.removeData(keysWithPrefix: prefix)
            if original, try await redis.containsData(forKey: sourceKey) {
                try await redis.removeData(forKey: sourceKey)
                removed.redis += 1
            }
        }
        return removed
    }
}
