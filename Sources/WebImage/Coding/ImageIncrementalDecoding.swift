public import Foundation

/// A decoder fed a file's bytes as they arrive, showing the image as it stands (SDWebImage's
/// `SDProgressiveImageCoder`).
///
/// It keeps its codec's state from call to call, so each ``append(_:)`` costs work in proportion to
/// the new bytes, not to all the bytes so far; ``currentImage()`` renders only when the image shows
/// more than the last one it returned. What "more" means is the format's:
///
/// | format | a new image when |
/// |---|---|
/// | JPEG, progressive | a scan is complete (one image per scan) |
/// | JPEG, baseline | more rows are decoded (rows not yet decoded are mid-grey) |
/// | PNG | more rows are decoded (transparent below); interlaced: an Adam7 pass is complete |
/// | WebP | more rows are decoded (transparent below) |
/// | GIF | a frame is complete (the first frame's rows while it arrives) |
///
/// The pixel limit (``ImageDecodingOptions/maxPixelCount``) is checked from the header before
/// anything is allocated in proportion to the image; corrupt data throws `badImageData`. With a
/// thumbnail size, images come at that size (JPEG decodes in the DCT domain at the scale a
/// one-shot decode would use). Once ``isComplete``, the last image equals a one-shot decode of the
/// same bytes with the same options (first frame only, for animations).
///
/// Not thread-safe: one owner feeds it and asks for images, one call at a time. The manager makes
/// one per download (``ImageRequest/Options/progressiveLoad``).
///
/// ```swift
/// guard let decoder = coders.makeIncrementalDecoder(for: firstBytes, options: options) else { return }
/// for await chunk in chunks {
///     try decoder.append(chunk)
///     if let preview = try decoder.currentImage() { show(preview) }
/// }
/// ```
public protocol ImageIncrementalDecoding: AnyObject {
    /// Feeds the next bytes of the file: only bytes not fed before, in order. Decodes what they
    /// complete; throws `badImageData` on corrupt data and `tooLarge` when the header declares more
    /// pixels than the limit.
    func append(_ data: Data) throws
    /// The image the bytes so far show when it shows more than the last one returned, else `nil`
    /// (nothing new, or nothing to show yet).
    func currentImage() throws -> Image?
    /// Whether the whole image has been decoded: the last image returned (or the next) is the final one.
    var isComplete: Bool { get }
}

/// A decoder that can also decode a file while it arrives: SDWebImage's `SDProgressiveImageCoder`,
/// an optional capability of a coder.
///
/// ``ImageCodersManager`` adopts it by asking the coder that recognises the first bytes.
public protocol ImageProgressiveDecoding: ImageDecoding {
    /// A new incremental decoder for a file this decoder recognises (``ImageDecoding/canDecode(_:)``
    /// on its first bytes), decoding with `options`.
    func makeIncrementalDecoder(options: ImageDecodingOptions) -> any ImageIncrementalDecoding
}
