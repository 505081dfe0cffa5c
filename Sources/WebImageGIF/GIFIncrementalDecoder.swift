import Foundation
import WebImage

/// Decodes a GIF while it arrives: one image per completed frame, composited as the animation
/// shows it (the latest complete frame over what the earlier ones left).
///
/// Each append walks the block structure (one length byte per 255 data bytes) and decompresses
/// only the frames it completes; the canvas is kept from call to call. The logical screen is
/// checked against the pixel limit from the 13-byte header, the canvas and every frame as the walk
/// meets them, and the animation budget as frames are counted, as in a one-shot decode. The file's
/// bytes are kept, since giflib reads each frame from its own offset.
final class GIFIncrementalDecoder: ImageIncrementalDecoding {
    private let options: ImageDecodingOptions
    private var bytes: [UInt8] = []
    private var container: GIFContainer?
    private var canvas: GIFCanvas?
    private var shownFrames = 0

    init(options: ImageDecodingOptions) {
        var walk = options
        walk.firstFrameOnly = false
        self.options = walk
    }

    var isComplete: Bool { container?.reachedTrailer ?? false }

    func append(_ data: Data) throws {
        guard !isComplete else { return }
        bytes.append(contentsOf: data)
        guard bytes.count >= 13 else { return }
        if container == nil {
            guard bytes.withUnsafeBytes({ GIFContainer.hasSignature($0) }) else {
                throw WebImageError.badData("not a GIF (bad signature)")
            }
            let screen = PixelSize(width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
            try options.checkPixelLimit(screen)
        }
        let parsed: GIFContainer
        do {
            parsed = try bytes.withUnsafeBytes { try GIFContainer(parsing: $0, limits: options) }
        } catch let error as WebImageError where error.code == .badImageData {
            return  // no complete image yet
        }
        container = parsed
        try options.checkPixelLimit(parsed.canvasSize)
        let renderer = GIFRenderer(bytes: bytes, container: parsed, maxPixelCount: options.maxPixelCount)
        if (canvas?.drawnFrames ?? 0) < parsed.frames.count {
            try renderer.advance(&canvas, to: parsed.frames.count - 1)
        }
    }

    func currentImage() throws -> Image? {
        guard let container, let canvas, canvas.drawnFrames > shownFrames else { return nil }
        shownFrames = canvas.drawnFrames
        let output = GIFOutput(size: options.targetSize(for: container.canvasSize), alphaMode: options.alphaMode)
        let pixels = canvas.buffer
        return Image(
            pixels: output.shape(pixels), scale: options.scaleFactor, format: .gif,
            hasAlpha: container.hasTransparency || !pixels.isOpaque, originalPixelSize: container.canvasSize)
    }
}
