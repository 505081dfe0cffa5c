import Foundation
import NIOCore
import WebImage

/// How one cache entry is laid out in Redis: one hash per key, so bytes, metadata and signature
/// are written and expire together. Fields: `d` the bytes; `created`, `modified` (seconds since
/// 1970 as decimal text); `url`, `ct`, `etag`, `lm`, `cc`, `exp`, `date`, `age`, `ext` (absent when
/// nil); `sha` the hex SHA-256 of the bytes; `kid` the id of the key that signed the entry and
/// `mac` its hex HMAC-SHA256 (``RedisEntrySignature``).
enum RedisEntryFields {
    static let data = "d"
    static let created = "created"
    static let modified = "modified"
    static let digest = "sha"
    static let keyID = "kid"
    static let mac = "mac"

    /// The metadata fields the MAC covers, in the order it reads them.
    static let signed = [created, modified, "url", "ct", "etag", "lm", "cc", "exp", "date", "age", "ext"]
    /// Every field but the bytes: what a store or a revalidation reads of the entry it replaces.
    static let header = signed + [digest, keyID, mac]

    /// The HTTP fields, by name.
    static func httpFields(_ http: HTTPCacheMetadata) -> [(String, String)] {
        var fields: [(String, String)] = []
        if let etag = http.etag { fields.append(("etag", etag)) }
        if let lastModified = http.lastModified { fields.append(("lm", lastModified)) }
        if let cacheControl = http.cacheControl { fields.append(("cc", cacheControl)) }
        if let expires = http.expires { fields.append(("exp", expires)) }
        if let date = http.date { fields.append(("date", date)) }
        if let age = http.age { fields.append(("age", String(age))) }
        return fields
    }

    /// The signed fields of a store: the dates and what `metadata` holds.
    static func fields(for metadata: CacheEntryMetadata?, created: String, modified: Date) -> [String: Data] {
        var fields = [Self.created: Data(created.utf8), Self.modified: Data(timestamp(modified).utf8)]
        if let metadata {
            if let url = metadata.originalURL { fields["url"] = Data(url.absoluteString.utf8) }
            if let contentType = metadata.contentType { fields["ct"] = Data(contentType.utf8) }
            for (field, value) in httpFields(metadata.http) { fields[field] = Data(value.utf8) }
            if let extended = metadata.extendedData { fields["ext"] = extended }
        }
        return fields
    }

    static func timestamp(_ date: Date) -> String { String(date.timeIntervalSince1970) }
}

/// An entry's fields as its hash holds them: the bytes (nil when only the header was read) and
/// every other field by name.
struct RedisEntryRecord {
    var data: Data?
    var fields: [String: Data]

    /// The record a `HGETALL` reply describes; nil for an empty reply (no such key) or one without bytes.
    init?(hashReply reply: RESPValue) {
        guard let elements = reply.elements, elements.count >= 2 else { return nil }
        var fields: [String: Data] = [:]
        var data: Data?
        for index in stride(from: 0, to: elements.count - 1, by: 2) {
            guard let name = elements[index].string, case .bulkString(let value?) = elements[index + 1] else { continue }
            if name == RedisEntryFields.data {
                data = Data(value.readableBytesView)
            } else {
                fields[name] = Data(value.readableBytesView)
            }
        }
        guard let data else { return nil }
        self.data = data
        self.fields = fields
    }

    /// The record an `HMGET` of ``RedisEntryFields/header`` describes, without the bytes; nil when
    /// no field is set (no such key).
    init?(headerReply reply: RESPValue) {
        guard let values = reply.elements, values.count == RedisEntryFields.header.count else { return nil }
        var fields: [String: Data] = [:]
        for (name, value) in zip(RedisEntryFields.header, values) {
            if case .bulkString(let bytes?) = value { fields[name] = Data(bytes.readableBytesView) }
        }
        guard !fields.isEmpty else { return nil }
        data = nil
        self.fields = fields
    }

    init(data: Data?, fields: [String: Data]) {
        self.data = data
        self.fields = fields
    }

    func text(_ name: String) -> String? { fields[name].map { String(decoding: $0, as: UTF8.self) } }

    /// Every field but the bytes, flattened as field, value, field, value, … for `HSET`.
    var flattenedFields: [any RESPArgument] {
        fields.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] as [any RESPArgument] }
    }

    /// The bytes and metadata served from this record (nil without bytes).
    func entry(readAt now: Date) -> (data: Data, metadata: CacheEntryMetadata)? {
        guard let data else { return nil }
        func date(_ name: String) -> Date { Date(timeIntervalSince1970: text(name).flatMap(Double.init) ?? 0) }
        let http = HTTPCacheMetadata(
            etag: text("etag"), lastModified: text("lm"), cacheControl: text("cc"), expires: text("exp"),
            date: text("date"), age: text("age").flatMap { Int($0) })
        let metadata = CacheEntryMetadata(
            originalURL: text("url").flatMap { URL(string: $0) }, contentType: text("ct"), http: http,
            extendedData: fields["ext"], byteSize: data.count,
            createdAt: date(RedisEntryFields.created), modifiedAt: date(RedisEntryFields.modified), lastAccessAt: now)
        return (data, metadata)
    }
}

/// The Lua scripts that make a store and a revalidation atomic (Redis runs a script alone).
enum RedisEntryScripts {
    /// KEYS[1] the entry; ARGV[1] TTL in ms (0: none), ARGV[2…] field/value pairs, the bytes and
    /// the signature among them. Replaces the hash.
    static let store = """
        redis.call('DEL', KEYS[1])
        redis.call('HSET', KEYS[1], unpack(ARGV, 2))
        local ttl = tonumber(ARGV[1])
        if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
        return 1
        """

    /// KEYS[1] the entry; ARGV[1] TTL in ms (0: none), ARGV[2] the MAC the entry must still carry,
    /// ARGV[3…] field/value pairs (every field but the bytes, newly signed). Updates the entry only
    /// if no one replaced it since it was read; returns 1 if it did.
    static let revalidate = """
        if redis.call('HGET', KEYS[1], 'mac') ~= ARGV[2] then return 0 end
        redis.call('HSET', KEYS[1], unpack(ARGV, 3))
        local ttl = tonumber(ARGV[1])
        if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
        return 1
        """
}
