import WebImage

/// The pages of a multi-page TIFF as the frames of an animation, each decoded when asked for:
/// the core's ``FrameSource`` over a ``TIFFPageCursor``.
///
/// TIFF pages carry no duration: each is shown for ``TIFFPageCursor/pageDuration`` (0.1 s, the
/// duration SDWebImage gives frames that declare none), and the animation loops forever. Every
/// frame is the canvas (the first page's size, or the thumbnail of it): a page of another size is
/// scaled to fit inside it, keeping its aspect ratio, centred on transparent pixels. Only the first
/// page's orientation is reported (``Image/orientation``).
typealias TIFFPageSource = FrameSource<TIFFPageCursor>

/// The open TIFF file, decoding any page on its own (no order, nothing to restart).
final class TIFFPageCursor: FrameCursor {
    /// How long each page is shown, in seconds.
    static let pageDuration = 0.1

    private let file: TIFFFile
    private let sourceCanvas: PixelSize
    private let maxPixelCount: Int
    private let converter: (any ColorConverting)?
    private(set) var decodedFrames = 0

    init(file: TIFFFile, sourceCanvas: PixelSize, maxPixelCount: Int, converter: (any ColorConverting)? = nil) {
        self.file = file
        self.sourceCanvas = sourceCanvas
        self.maxPixelCount = maxPixelCount
        self.converter = converter
    }

    /// Page `index` placed on the first page's canvas.
    func frame(at index: Int) throws -> PixelBuffer {
        decodedFrames += 1
        let page = try file.decodePage(index, maxPixelCount: maxPixelCount, converter: converter).pixels
        return page.size == sourceCanvas ? page : Self.fit(page, into: sourceCanvas)
    }

    /// `page` scaled to fit inside `canvas` (aspect kept), centred on transparent pixels.
    static func fit(_ page: PixelBuffer, into canvas: PixelSize) -> PixelBuffer {
        let scale = min(Double(canvas.width) / Double(page.width), Double(canvas.height) / Double(page.height))
        let fitted = PixelSize(
            width: min(canvas.width, max(1, Int((Double(page.width) * scale).rounded()))),
            height: min(canvas.height, max(1, Int((Double(page.height) * scale).rounded()))))
        let scaled = Resampler.resample(page, to: fitted)
        var result = PixelBuffer(width: canvas.width, height: canvas.height, alphaMode: page.alphaMode)
        let left = (canvas.width - fitted.width) / 2
        let top = (canvas.height - fitted.height) / 2
        let rowBytes = fitted.width * 4
        result.bytes.withUnsafeMutableBufferPointer { out in
            scaled.bytes.withUnsafeBufferPointer { source in
                guard let to = out.baseAddress, let from = source.baseAddress else { return }
                for y in 0..<fitted.height {
                    let offset = ((top + y) * canvas.width + left) * 4
                    (to + offset).update(from: from + y * rowBytes, count: rowBytes)
                }
            }
        }
        return result
    }
}

extension FrameSource where Cursor == TIFFPageCursor {
    /// The `pageCount` pages of `file` on the first page's canvas `sourceCanvas`, resampled to
    /// `outputSize`.
    convenience init(
        file: sending TIFFFile, pageCount: Int, sourceCanvas: PixelSize, outputSize: PixelSize, alphaMode: AlphaMode,
        maxPixelCount: Int, converter: (any ColorConverting)? = nil
    ) {
        self.init(
            format: "TIFF", frameCount: pageCount, loopCount: 0,
            storedDurations: Array(repeating: TIFFPageCursor.pageDuration, count: pageCount), canvasSize: outputSize,
            alphaMode: alphaMode, cursor: TIFFPageCursor(
                file: file, sourceCanvas: sourceCanvas, maxPixelCount: maxPixelCount, converter: converter),
            makeCursor: nil)
    }
}
