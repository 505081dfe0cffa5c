public import WebImage

extension ImageLoadersManager {
    /// A manager holding `http` (asked first for http/https), then the file:// and data: loaders.
    ///
    /// ```swift
    /// let http = HTTPImageLoader()
    /// let loaders = ImageLoadersManager.standard(http: http)
    /// // … later: try await http.shutdown()
    /// ```
    public static func standard(http: HTTPImageLoader) -> ImageLoadersManager {
        ImageLoadersManager(loaders: [FileImageLoader(), DataURLImageLoader(), http])
    }
}
