@_exported public import WebImage
@_exported public import WebImageCodecs
@_exported public import WebImageDiskCache
@_exported public import WebImageHTTP
@_exported public import WebImageRedis

extension ImageManager.Configuration {
    /// The standard configuration: `ImageCache.standard` (memory + disk in `namespace`), a loaders
    /// manager with the HTTP, file:// and data: loaders, and every built-in coder.
    ///
    /// ```swift
    /// import WebImageKit
    /// let manager = ImageManager(configuration: try .standard(namespace: "gallery"))
    /// ```
    public static func standard(
        namespace: String = "default", disk: DiskCacheConfiguration? = nil,
        http: HTTPImageLoader = HTTPImageLoader()
    ) throws -> ImageManager.Configuration {
        let coders = ImageCodersManager.standard()
        let cache = try ImageCache.standard(namespace: namespace, decoder: coders, disk: disk)
        return ImageManager.Configuration(imageCache: cache, loader: ImageLoadersManager.standard(http: http), coders: coders)
    }
}

extension ImageManager {
    /// The shared manager with the standard configuration (SDWebImage's `sharedManager`).
    ///
    /// If the default disk cache directory cannot be opened, the shared manager keeps images in
    /// memory only.
    ///
    /// ```swift
    /// import WebImageKit
    /// let response = try await ImageManager.shared.image(for: url)
    /// ```
    public static let shared: ImageManager = {
        if let configuration = try? ImageManager.Configuration.standard() {
            return ImageManager(configuration: configuration)
        }
        let coders = ImageCodersManager.standard()
        return ImageManager(
            configuration: ImageManager.Configuration(
                imageCache: ImageCache(memory: [MemoryCache()], decoder: coders),
                loader: ImageLoadersManager.standard(http: HTTPImageLoader()), coders: coders))
    }()
}
