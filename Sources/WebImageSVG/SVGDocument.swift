import CSVGShim
import WebImage

/// A parsed SVG document (librsvg, in this process) and its intrinsic size.
///
/// Parsed from memory without a base file, so librsvg loads no external resource (only `data:`
/// URLs): rendering never reaches the network or the file system. Not thread-safe; the coder makes
/// one per decode.
final class SVGDocument: SVGRendering {
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
        intrinsicSize = Self.usableIntrinsicSize(declared: source != WEBIMAGE_SVG_SIZE_NONE, width: width, height: height)
    }

    /// The size librsvg reports, or ``defaultSize`` when it reports none or an absurd one.
    static func usableIntrinsicSize(declared: Bool, width: Double, height: Double) -> (width: Double, height: Double) {
        let usable =
            declared && width.isFinite && height.isFinite && width > 0 && height > 0
            && width <= maxIntrinsicSide && height <= maxIntrinsicSide
        return usable ? (width, height) : defaultSize
    }

    /// Throws `tooLarge` for a side over cairo's limit.
    static func checkRenderSize(_ size: PixelSize) throws {
        guard size.width <= maxSide, size.height <= maxSide else {
            throw WebImageError(.tooLarge, "SVG render size \(size) is over cairo's \(maxSide) pixels a side")
        }
    }

    deinit { webimage_svg_close(handle) }

    /// Renders the document stretched to `size`, as premultiplied RGBA.
    func render(size: PixelSize, maxPixelCount: Int) throws -> PixelBuffer {
        try Self.checkRenderSize(size)
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

/// A parsed document, in this process (``SVGDocument``) or in a renderer process of its own
/// (``SVGRenderProcess``).
protocol SVGRendering: AnyObject {
    /// The intrinsic size in pixels (fractional), from width/height, else the viewBox, else
    /// ``SVGDocument/defaultSize``.
    var intrinsicSize: (width: Double, height: Double) { get }
    /// Renders the document stretched to `size`, as premultiplied RGBA.
    func render(size: PixelSize, maxPixelCount: Int) throws -> PixelBuffer
}

extension SVGRendering {
    /// The intrinsic size rounded to whole pixels (at least 1×1).
    var pixelSize: PixelSize {
        PixelSize(
            width: max(1, Int(intrinsicSize.width.rounded())), height: max(1, Int(intrinsicSize.height.rounded())))
    }
}
