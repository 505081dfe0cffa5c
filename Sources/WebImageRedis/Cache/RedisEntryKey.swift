import Crypto
public import Foundation
import WebImage

/// A secret that signs and verifies ``RedisImageCache`` entries, with the id written beside each
/// entry it signs so that keys can rotate.
///
/// Every node sharing a Redis tier must hold the same keys. An id is 1 to 32 characters of
/// `A–Z a–z 0–9 . _ -`; a secret is at least 16 bytes (`openssl rand -hex 32` makes a good one).
///
/// ```swift
/// let key = try RedisEntryKey(parsing: "2026a:" + hex)                 // as `--redis-key` takes it
/// let same = try RedisEntryKey(id: "2026a", secret: Data(secretBytes))
/// let derived = RedisEntryKey(derivingFrom: serviceSecret, salt: salt, label: "my service: Redis entries")
/// ```
public struct RedisEntryKey: Sendable {
    /// The id stored beside the entries this key signs (field `kid`).
    public let id: String
    /// The secret bytes (kept as `Data`: swift-crypto's `SymmetricKey` is not `Sendable`).
    private let secretBytes: Data

    /// The secret as an HMAC key.
    var secret: SymmetricKey { SymmetricKey(data: secretBytes) }

    /// The fewest secret bytes accepted.
    public static let minimumSecretBytes = 16

    /// A key from its id and secret bytes; throws ``WebImage/WebImageError/Code/invalidRedisEntryKey``
    /// for an id outside the rules or a secret under ``minimumSecretBytes``.
    public init(id: String, secret: Data) throws {
        guard Self.isValidID(id) else {
            throw WebImageError(
                .invalidRedisEntryKey, "the Redis key id `\(id.prefix(40))` is not 1 to 32 characters of A-Z a-z 0-9 . _ -")
        }
        guard secret.count >= Self.minimumSecretBytes else {
            throw WebImageError(
                .invalidRedisEntryKey,
                "the Redis key `\(id)` has \(secret.count) secret bytes; at least \(Self.minimumSecretBytes) are needed")
        }
        self.id = id
        secretBytes = secret
    }

    /// A key written `ID:HEX` (the form of `--redis-key` and `WEBIMAGE_REDIS_KEY`); throws
    /// ``WebImage/WebImageError/Code/invalidRedisEntryKey`` for anything else. The message never
    /// repeats the secret.
    public init(parsing text: String) throws {
        guard let colon = text.firstIndex(of: ":") else {
            throw WebImageError(.invalidRedisEntryKey, "a Redis key is written ID:HEX (no `:` found)")
        }
        let id = String(text[..<colon])
        guard let secret = Data(hexString: text[text.index(after: colon)...]) else {
            throw WebImageError(.invalidRedisEntryKey, "the secret of the Redis key `\(id.prefix(40))` is not an even-length hex string")
        }
        try self.init(id: id, secret: secret)
    }

    /// A key derived from another secret (HKDF-SHA256 with `salt` and `label` as its info): nodes
    /// that share `secret` and `salt` derive the same key without configuring one. Its id is
    /// `d-` and 8 hex digits of a digest of the derived key, the same on every node.
    public init(derivingFrom secret: Data, salt: Data, label: String) {
        let derived = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: secret), salt: salt, info: Data(label.utf8), outputByteCount: 32)
        let fingerprint = derived.withUnsafeBytes { bytes in
            SHA256.hash(data: Data("webimage redis key id".utf8) + Data(bytes))
        }
        id = "d-" + fingerprint.prefix(4).hexString
        secretBytes = derived.withUnsafeBytes { Data($0) }
    }

    static func isValidID(_ id: String) -> Bool {
        (1...32).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}

/// The keys of a ``RedisImageCache``: ``signing`` signs every entry written, and entries signed by
/// it or by any of ``verifying`` are trusted. To rotate, list the new key first and the old one
/// after it on every node, then drop the old one once its entries have expired or been rewritten.
///
/// ```swift
/// let keys = RedisEntryKeyring(signing: try RedisEntryKey(parsing: newKey), verifying: [try RedisEntryKey(parsing: oldKey)])
/// let redis = RedisImageCache(client: client, keys: keys)
/// ```
public struct RedisEntryKeyring: Sendable {
    /// The key new entries are signed with.
    public let signing: RedisEntryKey
    /// Further keys whose entries are trusted (older keys during a rotation).
    public let verifying: [RedisEntryKey]

    /// A keyring signing with `signing` and also trusting `verifying`. An id listed twice
    /// means its first key.
    public init(signing: RedisEntryKey, verifying: [RedisEntryKey] = []) {
        self.signing = signing
        self.verifying = verifying
    }

    /// A keyring of `keys`, the first signing; nil when `keys` is empty.
    public init?(_ keys: [RedisEntryKey]) {
        guard let first = keys.first else { return nil }
        self.init(signing: first, verifying: Array(keys.dropFirst()))
    }

    /// Every key, the signing one first.
    public var keys: [RedisEntryKey] { [signing] + verifying }

    /// The key with `id`, if the keyring holds one.
    func key(id: String) -> RedisEntryKey? {
        if signing.id == id { return signing }
        return verifying.first { $0.id == id }
    }
}
