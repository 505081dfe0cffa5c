public import Foundation

/// Requests whose source is not a URL (``ImageRequest/dataProvider``).
extension ImageRequest {
    /// A request for the image `provider` gives, cached under its
    /// ``ImageDataProviding/cacheKey`` (Kingfisher's `.provider` source).
    ///
    /// It goes through the same stages as a URL request but the download: memory, then disk, then
    /// one call to the provider, decode, transform, store. Never a loader, never the failed-URL
    /// list. ``ImageResponse/url`` is a `webimage-provider:` URL naming the key.
    ///
    /// ```swift
    /// var request = ImageRequest(provider: RawImageDataProvider(data: bytes, cacheKey: "avatar-7"))
    /// request.transformer = ResizeTransformer(size: PixelSize(width: 64, height: 64), mode: .aspectFill)
    /// ```
    public init(provider: any ImageDataProviding, options: Options = []) {
        self.init(url: nil, options: options)
        dataProvider = provider
    }

    /// A request for image bytes already in memory, cached under `id` (Nuke's
    /// `ImageRequest(id:data:)`).
    ///
    /// ```swift
    /// let response = try await manager.image(for: ImageRequest(id: "upload-3", data: pickedBytes))
    /// ```
    public init(id: String, data: Data, options: Options = []) {
        self.init(provider: RawImageDataProvider(data: data, cacheKey: id), options: options)
    }

    /// The URL that names the source: ``url``, or for a data provider a `webimage-provider:` URL
    /// made of its cache key (nil when neither gives one).
    var namingURL: URL? {
        guard let dataProvider else { return url }
        return Self.providerURL(forKey: dataProvider.cacheKey)
    }

    /// The `webimage-provider:` URL naming a provider's `key` (every byte but letters and digits
    /// percent-encoded, so that any key makes a URL).
    static func providerURL(forKey key: String) -> URL? {
        guard let encoded = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) else { return nil }
        return URL(string: "webimage-provider:" + encoded)
    }
}
