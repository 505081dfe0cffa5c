/// Changes an image on its way to one request's caller, after every cache (Kingfisher's
/// `ImageModifier`): what differs per use of one cached image, such as the display scale of a
/// target or a marker, without a cache entry of its own.
///
/// Transformers (``ImageTransforming``) make images that are cached under their own key; a
/// modifier runs on every response, from memory, disk or the network, and its result is never
/// stored. Two requests for one image share the work behind them and each gets its own
/// modification.
///
/// ```swift
/// var request = ImageRequest(url: url)
/// request.imageModifier = ImageModifier { image in
///     Image(pixels: image.pixels, scale: 2, orientation: image.orientation, format: image.format)
/// }
/// ```
public struct ImageModifier: Sendable {
    /// The change.
    public let modify: @Sendable (Image) -> Image

    /// A modifier from a closure.
    public init(_ modify: @escaping @Sendable (Image) -> Image) {
        self.modify = modify
    }
}

extension ImageRequest {
    /// `response` as this request's caller gets it: with ``imageModifier`` applied.
    func delivering(_ response: ImageResponse) -> ImageResponse {
        guard let imageModifier else { return response }
        var modified = response
        modified.image = imageModifier.modify(response.image)
        return modified
    }
}
