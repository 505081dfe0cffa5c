import Synchronization
import WebImage

/// The pages of a multi-page TIFF as the frames of an animation, each decoded when asked for.
///
/// TIFF pages carry no duration: each is shown for ``pageDuration`` (0.1 s, the duration
/// SDWebImage gives frames that declare none), and the animation loops forever. Every frame is the
/// canvas (the first page's size, or the thumbnail of it): a page of another size is scaled to fit
/// inside it, keeping its aspect ratio, centred on transparent pixels. Only the first page's
/// orientation is reported (``Image/orientation``).
final class TIFFPageSource: AnimatedImageSource {
    /// How long each page is shown, in seconds.
    static let pageDuration = 0.1

    let frameCount: Int
    let loopCount = 0
    let canvasSize: PixelSize
    private let sourceCanvas: PixelSize
    private let alphaMode: AlphaMode
    private let maxPixelCount: Int
    private let file: Mutex<TIFFFile>

    init(
        file: sending TIFFFile, pageCount: Int, sourceCanvas: PixelSize, outputSize: PixelSize, alphaMode: AlphaMode,
        maxPixelCount: Int
    ) {
        self.file = Mutex(file)
        self.frameCount = pageCount
        self.sourceCanvas = sourceCanvas
        self.canvasSize = outputSize
        self.alphaMode = alphaMode
        self.maxPixelCount = maxPixelCount
    }

    func duration(at index: Int) -> Double { Self.pageDuration }

    func frame(at index: Int) throws -> AnimationFrame {
        guard index >= 0 && index < frameCount else {
            throw WebImageError(.decodingFailed, "page \(index) is out of range 0..<\(frameCount)")
        }
        let page = try file.withLock { try $0.decodePage(index, maxPixelCount: maxPixelCount).pixels }
        let placed = page.size == sourceCanvas ? page : Self.fit(page, into: sourceCanvas)
        let sized = placed.size == canvasSize ? placed : Resampler.resample(placed, to: canvasSize)
        return AnimationFrame(pixels: sized.converted(to: alphaMode), duration: Self.pageDuration)
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
