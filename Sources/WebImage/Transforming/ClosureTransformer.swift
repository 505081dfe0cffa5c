/// A transformer from a closure (Kingfisher's closure-based processors): the `key` names what it
/// does and becomes part of the transformed image's cache key, so give every distinct closure its
/// own key.
///
/// ```swift
/// request.transformer = ClosureTransformer(key: "sepia-0.8") { image in try sepia(image, 0.8) }
/// ```
public struct ClosureTransformer: ImageTransforming {
    public let key: String
    private let body: @Sendable (Image) throws -> Image

    /// A transformer named `key` that runs `body`.
    public init(key: String, _ body: @escaping @Sendable (Image) throws -> Image) {
        self.key = key
        self.body = body
    }

    public func transform(_ image: Image) throws -> Image { try body(image) }
}
