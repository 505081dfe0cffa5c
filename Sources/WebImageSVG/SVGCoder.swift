public import Foundation
public import WebImage

/// Rasterises SVG with librsvg and cairo, as SDWebImage's SVG coder does on Apple platforms.
///
/// An SVG has no pixels of its own: it is rendered at its intrinsic size (its `width` and
/// `height` at 96 dpi, else its `viewBox`, else 300×150, the browsers' default), or, with
/// ``ImageDecodingOptions/thumbnailPixelSize``, at the size asked for: fitted into the box with
/// ``ImageDecodingOptions/preserveAspectRatio`` (scaled up as well as down: vectors lose nothing),
/// stretched to it without. ``ImageDecodingOptions/scaleDownLimitBytes`` applies after that.
/// A render size over ``ImageDecodingOptions/maxPixelCount`` (or 32767 pixels a side, cairo's
/// limit) is scaled down to fit it rather than refused. Pixels come out in
/// ``ImageDecodingOptions/alphaMode`` (cairo renders premultiplied; straight by default).
///
/// **External resources are never fetched.** Documents are parsed from memory with no base
/// file, and librsvg then refuses every reference that is not a `data:` URL (`<image href>`,
/// `<use href>` into other files, stylesheets, XML entities): a document can make no network or
/// file access. librsvg's limits on XML size, nesting and element count stay on.
///
/// There is no SVG encoder: ``encode(_:as:options:)`` throws
/// ``WebImageError/Code/unsupportedFormat``.
///
/// ```swift
/// var options = ImageDecodingOptions()
/// options.thumbnailPixelSize = PixelSize(width: 512, height: 512)
/// let icon = try SVGCoder().decode(svgData, options: options)   // 512 px on its longer side
/// ```
public struct SVGCoder: ImageCoding {
    /// Creates the coder (it holds no state).
    public init() {}

    /// `"svg"`.
    public var name: String { "svg" }

    /// Whether the bytes look like an SVG document (XML whose first element is `<svg`).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(in: data) == .svg
    }

    /// Always false: SVG is decoded only.
    public func canEncode(_ format: ImageFormat) -> Bool { false }

    /// Rasterises the document (see the type's description for the size).
    ///
    /// Throws ``WebImageError/Code/badImageData`` for documents librsvg cannot parse or render.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        guard canDecode(data) else { throw WebImageError.badData("not an SVG document (no <svg> root element)") }
        let document = try data.withUnsafeBytes { try SVGDocument($0) }
        let size = Self.renderSize(intrinsic: document.intrinsicSize, options: options)
        let pixels = try document.render(size: size, maxPixelCount: options.maxPixelCount)
        return Image(
            pixels: pixels.converted(to: options.alphaMode), scale: options.scaleFactor, format: .svg,
            originalPixelSize: document.pixelSize)
    }

    /// Throws ``WebImageError/Code/unsupportedFormat``: there is no SVG encoder.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        throw WebImageError(.unsupportedFormat, "the SVG coder decodes only; it cannot encode \(format)")
    }

    /// The pixel size an SVG of `intrinsic` size is rendered at under `options`.
    static func renderSize(intrinsic: (width: Double, height: Double), options: ImageDecodingOptions) -> PixelSize {
        var width = intrinsic.width
        var height = intrinsic.height
        if let box = options.thumbnailPixelSize, box.width > 0, box.height > 0 {
            if options.preserveAspectRatio {
                let scale = min(Double(box.width) / width, Double(box.height) / height)
                width *= scale
                height *= scale
            } else {
                width = Double(box.width)
                height = Double(box.height)
            }
        }
        // At most the pixel limit and cairo's side limit, keeping the aspect ratio.
        let limit = Double(max(1, options.maxPixelCount))
        var shrink = min(1, (limit / (width * height)).squareRoot())
        shrink = min(shrink, Double(SVGDocument.maxSide) / width, Double(SVGDocument.maxSide) / height)
        // Whole pixels: the nearest when nothing had to shrink (a 100.6-wide document is 101 wide,
        // as its header says), rounded down when a limit did.
        let rule: FloatingPointRoundingRule = shrink < 1 ? .down : .toNearestOrAwayFromZero
        var size = PixelSize(
            width: max(1, Int((width * shrink).rounded(rule))), height: max(1, Int((height * shrink).rounded(rule))))
        if let bytes = options.scaleDownLimitBytes, bytes > 0 {
            var scaleDown = ImageDecodingOptions()
            scaleDown.scaleDownLimitBytes = bytes
            size = scaleDown.targetSize(for: size)
        }
        return size
    }
}
