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
/// **librsvg runs in a process of its own** (``Isolation``): librsvg 2.54 is Rust, and a panic
/// cannot unwind through its C API, so a 150-byte document with a huge `font-size` aborted the
/// whole process. A renderer process (`webimage-svg-render`, built beside the `webimage` tool)
/// per document turns a crash into ``WebImageError/Code/badImageData`` for that document, caps
/// its memory and CPU time, and is killed when the decoding task is cancelled. Before any of it,
/// the document's ``SVGComplexity`` is checked against ``complexityLimits``.
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
    /// Where librsvg parses and renders documents.
    public enum Isolation: Sendable, Equatable {
        /// In a child process running `executable` (`webimage-svg-render`), one per document.
        case process(executable: String, limits: IsolationLimits)
        /// In the calling process: no process start (about 15 ms of CPU less a document), but a
        /// document that makes librsvg panic aborts the process. For trusted documents only.
        case inProcess

        /// A renderer process when `webimage-svg-render` is found — at `$WEBIMAGE_SVG_RENDERER`,
        /// else beside the running executable — and in process otherwise.
        public static var automatic: Isolation {
            SVGRendererLocation.executable.map { .process(executable: $0, limits: IsolationLimits()) } ?? .inProcess
        }
    }

    /// What a renderer process may use; it is stopped beyond either.
    public struct IsolationLimits: Sendable, Equatable {
        /// CPU seconds (the kernel stops the process: ``WebImageError/Code/tooLarge``).
        public var cpuSeconds: Int
        /// Address space beyond the render's own pixels (which are four times the pixel limit at
        /// most, counting librsvg's and cairo's surfaces).
        public var extraAddressSpaceBytes: Int

        /// 30 CPU seconds and 1 GiB beyond the pixels.
        public init(cpuSeconds: Int = 30, extraAddressSpaceBytes: Int = 1 << 30) {
            self.cpuSeconds = cpuSeconds
            self.extraAddressSpaceBytes = extraAddressSpaceBytes
        }

        /// The address-space limit for renders of at most `maxPixelCount` pixels.
        func addressSpace(maxPixelCount: Int) -> Int {
            let pixels = maxPixelCount.multipliedReportingOverflow(by: 16)
            return pixels.overflow ? Int.max : pixels.partialValue.addingReportingOverflow(extraAddressSpaceBytes).partialValue
        }
    }

    /// Where librsvg runs (``Isolation/automatic`` by default).
    public var isolation: Isolation
    /// What a document may ask of the renderer (``SVGComplexity/Limits/standard`` by default).
    public var complexityLimits: SVGComplexity.Limits

    /// Creates the coder.
    public init(isolation: Isolation = .automatic, complexityLimits: SVGComplexity.Limits = .standard) {
        self.isolation = isolation
        self.complexityLimits = complexityLimits
    }

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
    /// Throws ``WebImageError/Code/badImageData`` for documents librsvg cannot parse or render
    /// (or that make it crash), ``WebImageError/Code/tooLarge`` for documents over
    /// ``complexityLimits`` or the renderer's CPU time, and ``WebImageError/Code/cancelled`` when
    /// the calling task is cancelled during an isolated render.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        guard canDecode(data) else { throw WebImageError.badData("not an SVG document (no <svg> root element)") }
        let complexity = SVGComplexity(data)
        try complexity.check(against: complexityLimits, outputPixels: 0)
        let document = try open(data, maxPixelCount: options.maxPixelCount)
        let size = Self.renderSize(intrinsic: document.intrinsicSize, options: options)
        try complexity.check(against: complexityLimits, outputPixels: size.pixelCount)
        let pixels = try document.render(size: size, maxPixelCount: options.maxPixelCount)
        return Image(
            pixels: pixels.converted(to: options.alphaMode), scale: options.scaleFactor, format: .svg,
            originalPixelSize: document.pixelSize)
    }

    /// The document, parsed where ``isolation`` says.
    func open(_ data: Data, maxPixelCount: Int) throws -> any SVGRendering {
        try data.withUnsafeBytes { bytes -> any SVGRendering in
            switch isolation {
            case .inProcess:
                return try SVGDocument(bytes)
            case .process(let executable, let limits):
                return try SVGRenderProcess(
                    executable: executable, cpuSeconds: limits.cpuSeconds,
                    addressSpace: limits.addressSpace(maxPixelCount: maxPixelCount), document: bytes)
            }
        }
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
