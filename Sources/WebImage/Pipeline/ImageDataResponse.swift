public import Foundation

/// The original bytes of a request, from ``ImageManager/data(for:)``: as downloaded (or as the
/// data provider gave them), never decoded.
///
/// ```swift
/// let original = try await manager.data(for: ImageRequest(url: url))
/// print(original.data.count, original.cacheType)        // .disk when the disk cache had them
/// ```
public struct ImageDataResponse: Sendable {
    /// The bytes.
    public var data: Data
    /// Where they came from: ``ImageCacheType/disk``, or ``ImageCacheType/none`` (loaded).
    public var cacheType: ImageCacheType
    /// The requested URL (a `webimage-provider:` URL for a data-provider request).
    public var url: URL

    /// A response from explicit values.
    public init(data: Data, cacheType: ImageCacheType, url: URL) {
        self.data = data
        self.cacheType = cacheType
        self.url = url
    }
}
