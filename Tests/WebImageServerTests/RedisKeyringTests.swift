import Foundation
import Testing
import WebImageKit
import WebImageRedis
import WebImageServer

/// The keys a service signs its Redis entries with: `redisKeys` when given, else one derived
/// from each URL signing pair (the same on every node that shares the pair), else none.
@Suite("Service: Redis entry keys")
struct RedisKeyringTests {
    @Test("configured keys win; else one per URL signing pair, in order; else a configuration error")
    func keyringSources() throws {
        var configuration = ImageServerConfiguration()
        do {
            _ = try configuration.redisKeyring()
            Issue.record("a keyring without any key")
        } catch let error as WebImageError {
            #expect(error.code == .invalidServerConfiguration)
        }
        let current = try URLSigningKey(keyHex: "736563726574", saltHex: "68656c6c6f")
        let previous = try URLSigningKey(keyHex: "6f6c64", saltHex: "73616c74")
        configuration.signingKeys = [current, previous]
        let derived = try configuration.redisKeyring()
        #expect(derived.keys.map(\.id) == [current.redisEntryKey.id, previous.redisEntryKey.id])
        let sameOnAnotherNode = try URLSigningKey(keyHex: "736563726574", saltHex: "68656c6c6f")
        #expect(sameOnAnotherNode.redisEntryKey.id == current.redisEntryKey.id)
        #expect(current.redisEntryKey.id != previous.redisEntryKey.id)
        configuration.redisKeys = [try RedisEntryKey(parsing: "k1:" + String(repeating: "ab", count: 16))]
        #expect(try configuration.redisKeyring().keys.map(\.id) == ["k1"])
    }
}
