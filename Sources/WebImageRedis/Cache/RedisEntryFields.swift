import Foundation
import NIOCore
import WebImage

/// How one cache entry is laid out in Redis: one hash per key, so bytes and metadata are written
/// and expire together. Fields: `d` the bytes; `created`, `modified` (seconds since 1970 as
/// decimal text); `url`, `ct`, `etag`, `lm`, `cc`, `exp`, `date`, `age`, `ext` (absent when nil).
enum RedisEntryFields {
    static let data = "d"
    static let created = "created"
    static let modified = "modified"

    /// The HTTP fields, by name, as the revalidation script sets them.
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

    /// Every field but `created` for a store, flattened as field, value, field, value, ….
    static func storeArguments(data: Data, metadata: CacheEntryMetadata?, now: Date) -> [any RESPArgument] {
        var arguments: [any RESPArgument] = [Self.data, data, modified, timestamp(now)]
        if let metadata {
            if let url = metadata.originalURL { arguments += ["url", url.absoluteString] }
            if let contentType = metadata.contentType { arguments += ["ct", contentType] }
            for (field, value) in httpFields(metadata.http) { arguments += [field, value] }
            if let extended = metadata.extendedData { arguments += ["ext", extended] }
        }
        return arguments
    }

    static func timestamp(_ date: Date) -> String { String(date.timeIntervalSince1970) }

    /// The entry a `HGETALL` reply describes; `nil` for an empty reply (no such key) or one
    /// without bytes.
    static func entry(from reply: RESPValue, readAt now: Date) -> (data: Data, metadata: CacheEntryMetadata)? {
        guard let elements = reply.elements, elements.count >= 2 else { return nil }
        var fields: [String: ByteBuffer] = [:]
        for index in stride(from: 0, to: elements.count - 1, by: 2) {
            guard let name = elements[index].string, case .bulkString(let value?) = elements[index + 1] else { continue }
            fields[name] = value
        }
        guard let bytes = fields[data] else { return nil }
        func text(_ name: String) -> String? { fields[name].map { String(buffer: $0) } }
        func date(_ name: String) -> Date { Date(timeIntervalSince1970: text(name).flatMap(Double.init) ?? 0) }
        let http = HTTPCacheMetadata(
            etag: text("etag"), lastModified: text("lm"), cacheControl: text("cc"), expires: text("exp"),
            date: text("date"), age: text("age").flatMap { Int($0) })
        let metadata = CacheEntryMetadata(
            originalURL: text("url").flatMap { URL(string: $0) }, contentType: text("ct"), http: http,
            extendedData: fields["ext"].map { Data($0.readableBytesView) }, byteSize: bytes.readableBytes,
            createdAt: date(created), modifiedAt: date(modified), lastAccessAt: now)
        return (Data(bytes.readableBytesView), metadata)
    }
}

/// The Lua scripts that make a store and a revalidation atomic (Redis runs a script alone).
enum RedisEntryScripts {
    /// KEYS[1] the entry; ARGV[1] TTL in ms (0: none), ARGV[2] now, ARGV[3…] field/value pairs.
    /// Replaces the hash, keeping the first store's `created`.
    static let store = """
        local created = redis.call('HGET', KEYS[1], 'created') or ARGV[2]
        redis.call('DEL', KEYS[1])
        redis.call('HSET', KEYS[1], 'created', created, unpack(ARGV, 3))
        local ttl = tonumber(ARGV[1])
        if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
        return 1
        """

    /// KEYS[1] the entry; ARGV[1] TTL in ms (0: none), ARGV[2…] field/value pairs (`modified` and
    /// the 304's headers). Updates only an existing entry; returns 1 if it did.
    static let revalidate = """
        if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
        redis.call('HSET', KEYS[1], unpack(ARGV, 2))
        local ttl = tonumber(ARGV[1])
        if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
        return 1
        """
}
