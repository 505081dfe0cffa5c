import Foundation
import WebImage

/// A short lock in Redis marking one node's download of a source: `SET key token NX PX ttl` to
/// take it, a check-and-delete script to release it (only the holder's token deletes it, so a
/// lock that expired and was taken by another node is never released by the first).
struct RedisDownloadLock: Sendable {
    let client: RedisClient
    let key: String
    let token: String
    let ttl: Duration

    static let releaseScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """

    init(client: RedisClient, key: String, ttl: Duration) {
        self.client = client
        self.key = key
        self.ttl = ttl
        self.token = UUID().uuidString
    }

    /// Takes the lock if no one holds it.
    func acquire() async throws -> Bool {
        let milliseconds = max(1, ttl.components.seconds * 1000 + ttl.components.attoseconds / 1_000_000_000_000_000)
        let reply = try await client.send("SET", key, token, "NX", "PX", milliseconds)
        return !reply.isNull
    }

    /// Whether anyone holds the lock now.
    func isHeld() async throws -> Bool {
        try await client.send("EXISTS", key).integer == 1
    }

    /// Releases the lock if this token still holds it.
    func release() async {
        _ = try? await client.send("EVAL", Self.releaseScript, 1, key, token)
    }
}
