public import Foundation
import WebImage

/// An object in S3 or an S3-compatible store, from an `s3://bucket/key` URL.
///
/// The bucket must be a valid S3 bucket name (3–63 lowercase letters, digits, `.` and `-`,
/// starting and ending with a letter or digit); the key is the URL's path, percent-decoded,
/// without its first `/` (1–1024 bytes). A key with a `.` or `..` segment is refused: a store
/// that normalizes paths would read it outside the bucket. Queries and fragments are refused.
///
/// ```swift
/// let object = try S3Location(URL(string: "s3://photos/2026/cat%20one.jpg")!)
/// print(object.bucket, object.key)   // photos 2026/cat one.jpg
/// ```
public struct S3Location: Sendable, Hashable {
    /// The bucket.
    public var bucket: String
    /// The object key, decoded.
    public var key: String

    /// Whether `url` is an `s3://` URL.
    public static func isS3(_ url: URL) -> Bool { url.scheme?.lowercased() == "s3" }

    /// The object an `s3://bucket/key` URL names, or ``WebImage/WebImageError/Code/invalidURL``
    /// saying what is wrong.
    public init(_ url: URL) throws {
        let text = url.absoluteString
        guard Self.isS3(url) else { throw WebImageError(.invalidURL, "\(text) is not an s3:// URL") }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true), let bucket = components.host,
            !bucket.isEmpty
        else {
            throw WebImageError(.invalidURL, "\(text) names no bucket (s3://bucket/key)")
        }
        guard components.user == nil, components.password == nil, components.port == nil else {
            throw WebImageError(.invalidURL, "\(text): an s3:// URL is s3://bucket/key, without user, password or port")
        }
        guard components.query == nil, components.fragment == nil else {
            throw WebImageError(.invalidURL, "\(text): an s3:// URL takes no query or fragment")
        }
        guard Self.isValidBucketName(bucket) else {
            throw WebImageError(
                .invalidURL,
                "\(text): '\(bucket)' is not an S3 bucket name (3–63 lowercase letters, digits, '.' and '-', starting and ending with a letter or digit)")
        }
        var key = components.path
        if key.hasPrefix("/") { key.removeFirst() }
        guard !key.isEmpty else { throw WebImageError(.invalidURL, "\(text) names no object key (s3://bucket/key)") }
        guard key.utf8.count <= 1024 else {
            throw WebImageError(.invalidURL, "\(text): the object key is \(key.utf8.count) bytes, over S3's 1024")
        }
        guard !key.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) else {
            throw WebImageError(.invalidURL, "\(text): an object key with a '.' or '..' segment is refused")
        }
        self.bucket = bucket
        self.key = key
    }

    /// Whether `name` follows S3's rules for bucket names (and so is a DNS label sequence).
    public static func isValidBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return false }
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard isAlphanumeric(bytes.first!), isAlphanumeric(bytes.last!) else { return false }
        guard bytes.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }) else { return false }
        return !name.contains("..") && !name.contains(".-") && !name.contains("-.")
    }
}
