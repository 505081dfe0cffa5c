public import Foundation

/// A source of image bytes that is not a URL (Kingfisher's `ImageDataProvider`): bytes made by
/// the app, read from a database or an archive, or already in memory.
///
/// The manager asks it for the bytes only when neither the memory nor the disk cache holds the
/// result under ``cacheKey``; the bytes are then decoded, transformed and stored like downloaded
/// ones, under that key. Two providers with the same key must give the same bytes: concurrent
/// requests with the same key share one call.
///
/// ```swift
/// struct Thumbnail: ImageDataProviding {
///     let id: Int64
///     var cacheKey: String { "db-thumbnail-\(id)" }
///     func data() async throws -> Data { try await database.thumbnailBytes(id) }
/// }
/// let response = try await manager.image(for: ImageRequest(provider: Thumbnail(id: 42)))
/// ```
public protocol ImageDataProviding: Sendable {
    /// The key the original image is cached under; names the bytes, so it must change when they do.
    var cacheKey: String { get }
    /// The encoded image bytes. A thrown error fails the request with
    /// ``WebImageError/Code/dataProviderFailed`` (a `WebImageError` passes through).
    func data() async throws -> Data
}

/// Bytes already in memory as an ``ImageDataProviding`` source (Kingfisher's
/// `RawImageDataProvider`, Nuke's `ImageRequest(id:data:)`).
///
/// ```swift
/// let request = ImageRequest(provider: RawImageDataProvider(data: pngBytes, cacheKey: "avatar-7"))
/// ```
public struct RawImageDataProvider: ImageDataProviding {
    /// The bytes.
    public let bytes: Data
    /// The key they are cached under.
    public let cacheKey: String

    /// A provider of `data`, cached under `cacheKey`.
    public init(data: Data, cacheKey: String) {
        bytes = data
        self.cacheKey = cacheKey
    }

    /// The bytes given at creation.
    public func data() async throws -> Data { bytes }
}
