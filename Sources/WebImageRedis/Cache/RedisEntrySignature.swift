import Crypto
import Foundation

/// The authentication of a Redis entry: `mac = HMAC-SHA256(key, message)` with the keyring key
/// named by `kid`, where the message is, each part preceded by its length (8 bytes, big endian):
/// the label `webimage-redis-entry-v1`, the key id, the entry's full Redis key (namespace
/// included, so an entry copied to another key does not verify), the SHA-256 of the bytes, then
/// for each of ``RedisEntryFields/signed`` in order a byte 0 (absent) or 1 followed by its value.
///
/// Everything an entry serves is covered: the bytes, the content type, the validators, the
/// freshness headers, the dates, the URL and the extension blob. Fields outside the list are
/// never read. An attacker who can write to Redis can still delete entries, or put back an older
/// entry of the same key signed by a trusted key; they cannot forge one.
enum RedisEntrySignature {
    /// Why an entry is not trusted (the `reason` of `<prefix>_rejected_entries_total`).
    enum Rejection: String, CaseIterable, Sendable {
        /// No `mac` or `kid`: an entry in the unauthenticated format of earlier versions, or not
        /// written by a ``RedisImageCache``.
        case unsigned
        /// Signed with a key id this keyring does not hold (a rotated-out key, another service).
        case unknownKey = "unknown_key"
        /// A `mac` or `sha` that is not 32 bytes of hex.
        case malformed
        /// The MAC does not verify: the bytes or a field were changed, the MAC forged, or the
        /// entry moved from another key.
        case mismatch

        var explanation: String {
            switch self {
            case .unsigned: "it carries no signature (an older format, or not written by WebImage)"
            case .unknownKey: "it is signed with a key id this node does not hold"
            case .malformed: "its signature fields are malformed"
            case .mismatch: "its signature does not match its bytes and fields (changed, forged or moved)"
            }
        }
    }

    static let label = Data("webimage-redis-entry-v1".utf8)

    /// Sets `sha`, `kid` and `mac` in `fields` for an entry of `redisKey` whose bytes hash to `digest`.
    static func sign(_ fields: inout [String: Data], redisKey: String, digest: Data, with key: RedisEntryKey) {
        let code = HMAC<SHA256>.authenticationCode(
            for: message(redisKey: redisKey, keyID: key.id, digest: digest, fields: fields), using: key.secret)
        fields[RedisEntryFields.digest] = Data(digest.hexString.utf8)
        fields[RedisEntryFields.keyID] = Data(key.id.utf8)
        fields[RedisEntryFields.mac] = Data(Data(code).hexString.utf8)
    }

    /// Why `record` (of `redisKey`) is not trusted, or nil when it verifies with a key of `keys`.
    /// A record with its bytes is checked against their digest; a header alone (read to keep
    /// `created` or to revalidate) against the recorded `sha`.
    static func check(_ record: RedisEntryRecord, redisKey: String, keys: RedisEntryKeyring) -> Rejection? {
        guard let macText = record.fields[RedisEntryFields.mac], let keyID = record.text(RedisEntryFields.keyID) else {
            return .unsigned
        }
        guard let key = keys.key(id: keyID) else { return .unknownKey }
        guard let mac = Data(hexString: String(decoding: macText, as: UTF8.self)), mac.count == SHA256.byteCount else {
            return .malformed
        }
        guard let text = record.text(RedisEntryFields.digest), let recorded = Data(hexString: text),
            recorded.count == SHA256.byteCount
        else { return .malformed }
        let digest: Data
        if let data = record.data {
            // The bytes themselves are what is signed; a recorded digest that differs is a change too.
            digest = Data(SHA256.hash(data: data))
            guard digest == recorded else { return .mismatch }
        } else {
            digest = recorded
        }
        let signed = message(redisKey: redisKey, keyID: keyID, digest: digest, fields: record.fields)
        // Constant time: swift-crypto compares the codes without an early exit.
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: signed, using: key.secret) ? nil : .mismatch
    }

    /// The signed message (see the type's documentation).
    static func message(redisKey: String, keyID: String, digest: Data, fields: [String: Data]) -> Data {
        var message = Data()
        func append(_ part: Data) {
            withUnsafeBytes(of: UInt64(part.count).bigEndian) { message.append(contentsOf: $0) }
            message.append(part)
        }
        append(label)
        append(Data(keyID.utf8))
        append(Data(redisKey.utf8))
        append(digest)
        for name in RedisEntryFields.signed {
            if let value = fields[name] {
                message.append(1)
                append(value)
            } else {
                message.append(0)
            }
        }
        return message
    }
}
