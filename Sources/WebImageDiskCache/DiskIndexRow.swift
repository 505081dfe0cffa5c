import Foundation
import GRDB
import WebImage

/// One row of the index: an entry's bookkeeping and metadata.
struct DiskIndexRow: Sendable {
    var hash: String
    var key: String
    var size: Int
    var createdAt: Double
    var modifiedAt: Double
    var accessedAt: Double
    var token: Int64
    /// The SHA-256 of the data file; `nil` for rows written before schema v2.
    var checksum: Data?
    var url: String?
    var contentType: String?
    var etag: String?
    var lastModified: String?
    var cacheControl: String?
    var expires: String?
    var httpDate: String?
    var age: Int?
    var extended: Data?

    init(row: Row) {
        hash = row["hash"]
        key = row["key"]
        size = row["size"]
        createdAt = row["created_at"]
        modifiedAt = row["modified_at"]
        accessedAt = row["accessed_at"]
        token = row["token"]
        checksum = row["checksum"]
        url = row["url"]
        contentType = row["content_type"]
        etag = row["etag"]
        lastModified = row["last_modified"]
        cacheControl = row["cache_control"]
        expires = row["expires"]
        httpDate = row["http_date"]
        age = row["age"]
        extended = row["extended"]
    }

    init(
        hash: String, key: String, size: Int, now: Double, token: Int64, checksum: Data?, metadata: CacheEntryMetadata?
    ) {
        self.hash = hash
        self.key = key
        self.size = size
        self.checksum = checksum
        createdAt = now
        modifiedAt = now
        accessedAt = now
        self.token = token
        url = metadata?.originalURL?.absoluteString
        contentType = metadata?.contentType
        etag = metadata?.http.etag
        lastModified = metadata?.http.lastModified
        cacheControl = metadata?.http.cacheControl
        expires = metadata?.http.expires
        httpDate = metadata?.http.date
        age = metadata?.http.age
        extended = metadata?.extendedData
    }

    /// The date ``DiskCacheExpireType`` names, in seconds since 1970.
    func date(for expireType: DiskCacheExpireType) -> Double {
        switch expireType {
        case .accessDate: accessedAt
        case .modificationDate: modifiedAt
        case .creationDate: createdAt
        }
    }

    var metadata: CacheEntryMetadata {
        CacheEntryMetadata(
            originalURL: url.flatMap { URL(string: $0) },
            contentType: contentType,
            http: HTTPCacheMetadata(
                etag: etag, lastModified: lastModified, cacheControl: cacheControl, expires: expires, date: httpDate,
                age: age),
            extendedData: extended,
            byteSize: size,
            createdAt: Date(timeIntervalSince1970: createdAt),
            modifiedAt: Date(timeIntervalSince1970: modifiedAt),
            lastAccessAt: Date(timeIntervalSince1970: accessedAt))
    }

    /// The columns set from caller-provided metadata, in ``metadataColumns`` order.
    var metadataArguments: [(any DatabaseValueConvertible)?] {
        [url, contentType, etag, lastModified, cacheControl, expires, httpDate, age, extended]
    }

    static let metadataColumns = [
        "url", "content_type", "etag", "last_modified", "cache_control", "expires", "http_date", "age", "extended",
    ]
}

extension DiskCacheExpireType {
    /// The index column holding this date.
    var column: String {
        switch self {
        case .accessDate: "accessed_at"
        case .modificationDate: "modified_at"
        case .creationDate: "created_at"
        }
    }
}
