import CSVGShim
import WebImage

/// A parsed SVG document (librsvg) and its intrinsic size.
///
/// Parsed from memory without a base file, so librsvg loads no external resource (only `data:`
/// URLs): rendering never reaches the network or the file system. Not thread-safe; the coder makes
/// one per decode.
final class SVGDocument {
    /// The size of an SVG that declares neither a usable width and height nor a viewBox: the CSS
    /// default object size browsers use (300×150).
    static let defaultSize = (width: 300.0, height: 150.0)
    /// The largest side cairo renders.
    static let maxSide = 32767
    /// Sides beyond this are treated as absurd and the document as unsized.
    private static let maxIntrinsicSide = 1e9

    private let handle: OpaquePointer
    /// The intrinsic size in pixels (fractional), from width/height, else the viewBox, else
    /// ``defaultSize``.
    let intrinsicSize: (width: Double, height: Double)

    init(_ data: UnsafeRawBufferPointer) throws {
        var message = [CChar](repeating: 0, count: 512)
        guard let handle = webimage_svg_open(data.baseAddress, data.count, &message, message.count) else {
            throw WebImageError.badData(String(nulTerminated: message))
        }
        self.handle = handle
        var width = 0.0
        var height = 0.0
        let source = webimage_svg_intrinsic_size(handle, &width, &height)
        let usable =
            source != WEBIMAGE_SVG_SIZE_NONE && width.isFinite && height.isFinite && width > 0 && height > 0
            && width <= Self.maxIntrinsicSide && height <= Self.maxIntrinsicSide
        intrinsicSize = usable ? (width, height) : Self.defaultSize
    }

    deinit { webimage_svg_close(handle) }

    /// The intrinsic size rounded to whole pixels (at least 1×1).
    var pixelSize: PixelSize {
        PixelSize(
            width: max(1, Int(intrinsicSize.width.rounded())), height: max(1, Int(intrinsicSize.height.rounded())))
    }

    /// Renders the document stretched to `size`, as premultiplied RGBA.
    func render(size: PixelSize, maxPixelCount: Int) throws -> PixelBuffer {
        guard size.width <= Self.maxSide, size.height <= Self.maxSide else {
            throw WebImageError(.tooLarge, "SVG render size \(size) is over cairo's \(Self.maxSide) pixels a side")
        }
        var message = [CChar](repeating: 0, count: 512)
        return try PixelBuffer(
            width: size.width, height: size.height, alphaMode: .premultiplied, maxPixelCount: maxPixelCount
        ) { out in
            let status = webimage_svg_render(
                handle, intrinsicSize.width, intrinsicSize.height, out.baseAddress, Int32(size.width),
                Int32(size.height), &message, message.count)
            guard status == 0 else { throw WebImageError.badData(String(nulTerminated: message)) }
        }
    }
}
