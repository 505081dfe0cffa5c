internal import Crypto
public import Foundation
import WebImage
public import WebImageRedis

/// One key/salt pair for URL signatures: `signature = base64url(HMAC-SHA256(key, salt + path))`
/// without padding, where `path` is everything after the signature segment, starting with `/`
/// (imgproxy's scheme, so its signing libraries work unchanged).
///
/// ```swift
/// let key = try URLSigningKey(keyHex: "943b421c9eb07c83", saltHex: "520f986b998545b4")
/// let path = "/rs:fit:300:300/plain/https%3A%2F%2Fexample.com%2Fcat.jpg@webp"
/// let url = "/" + key.signature(for: path) + path
/// ```
public struct URLSigningKey: Sendable, Hashable {
    /// The HMAC key bytes.
    public let key: Data
    /// The salt bytes, prepended to the path.
    public let salt: Data

    /// A pair from raw bytes.
    public init(key: Data, salt: Data) {
        self.key = key
        self.salt = salt
    }

    /// A pair from hex strings; throws ``WebImage/WebImageError`` code ``WebImage/WebImageError/Code/invalidServerConfiguration`` when either is empty or not hex.
    public init(keyHex: String, saltHex: String) throws {
        guard let key = Data(hexString: keyHex), !key.isEmpty else {
            throw WebImageError(.invalidServerConfiguration, "the signing key is not a non-empty hex string")
        }
        guard let salt = Data(hexString: saltHex) else {
            throw WebImageError(.invalidServerConfiguration, "the signing salt is not a hex string")
        }
        self.init(key: key, salt: salt)
    }

    /// The base64url signature (no padding) of `path`.
    public func signature(for path: String) -> String {
        Data(digest(for: path)).base64URLEncodedString()
    }

    /// Whether `signature` is exactly the canonical signature of `path` — unpadded base64url, as
    /// imgproxy's libraries write it — compared in constant time. Padding, `+` or `/` for `-` or
    /// `_`, and other spellings of the same bytes (a last character with stray low bits) do not
    /// verify: one signed URL has one spelling, so it cannot be varied past a cache in front.
    func verifies(_ signature: Substring, path: Substring) -> Bool {
        let given = Array(signature.utf8)
        let expected = Array(self.signature(for: String(path)).utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        return difference == 0
    }

    /// The key this pair's service signs its Redis entries with when none is configured:
    /// HKDF-SHA256 of the key, with the salt and the fixed label `webimage serve: Redis entries v1`
    /// (so it is not the URL key itself). Nodes sharing a pair derive the same key and id.
    public var redisEntryKey: RedisEntryKey {
        RedisEntryKey(derivingFrom: key, salt: salt, label: "webimage serve: Redis entries v1")
    }

    private func digest(for path: some StringProtocol) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: key))
        hmac.update(data: salt)
        hmac.update(data: Data(path.utf8))
        return Array(hmac.finalize())
    }
}

extension Data {
    /// Base64url without padding (RFC 4648 §5).
    func base64URLEncodedString() -> String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Bytes from base64url, padded or not (nil when malformed).
    init?(base64URLEncoded text: some StringProtocol) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") || base64.hasSuffix("=") else { return nil }
        base64 = base64.trimmingCharacters(in: CharacterSet(charactersIn: "="))
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
