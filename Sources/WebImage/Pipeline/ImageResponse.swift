public import Foundation

/// What a request produced: the image, its bytes when at hand, where it came from, and whether
/// more is coming.
///
/// ```swift
/// let response = try await manager.image(for: ImageRequest(url: url))
/// print(response.image.pixelSize, response.cacheType, response.isFinal)
/// ```
public struct ImageResponse: Sendable {
    /// The image.
    public var image: Image
    /// The encoded bytes of ``image``, when the manager had them (downloads, disk hits,
    /// `queryMemoryData`). A thumbnail, first-frame or transformed image made from the original
    /// carries nil, never the original's bytes.
    public var data: Data?
    /// Where the image came from: ``ImageCacheType/none`` (downloaded), memory or disk.
    public var cacheType: ImageCacheType
    /// The requested URL.
    public var url: URL
    /// The URL the image was downloaded from: ``url``, or the fallback URL that answered
    /// (``ImageRequest/fallbackURLs``). For a cache hit, ``url``: the cache key is its.
    public var sourceURL: URL
    /// Whether this is the last response of the request: `false` for the cached image a
    /// `refreshCached` request delivers before revalidating.
    public var isFinal: Bool

    /// A response.
    public init(
        image: Image, data: Data? = nil, cacheType: ImageCacheType, url: URL, sourceURL: URL? = nil, isFinal: Bool = true
    ) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.url = url
        self.sourceURL = sourceURL ?? url
        self.isFinal = isFinal
    }
}
