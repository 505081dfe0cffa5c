import Foundation
import WebImage

/// Decodes GIF data into an ``Image``: frame 0 as the pixels, the rest on demand.
enum GIFDecoder {
    static func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        let bytes = [UInt8](data)
        // Sizes, the animation budget and first-frame-only are applied while the blocks are walked.
        let container = try bytes.withUnsafeBytes { try GIFContainer(parsing: $0, limits: options) }
        try options.checkPixelLimit(container.canvasSize)

        let animated = container.frames.count > 1 && !options.firstFrameOnly
        let target = options.targetSize(
            for: container.canvasSize, frameCount: animated ? container.frames.count : 1)
        let output = GIFOutput(size: target, alphaMode: options.alphaMode)
        let renderer = GIFRenderer(bytes: bytes, container: container, maxPixelCount: options.maxPixelCount)

        var playback = GIFPlayback()
        try renderer.advance(&playback, to: 0)
        guard let first = playback.canvas?.sharedBuffer() else { throw WebImageError(.decodingFailed, "GIF frame 0 missing") }

        var animation: GIFAnimatedSource?
        if animated {
            animation = GIFAnimatedSource(renderer: renderer, output: output, playback: playback)
        }
        let clears = animated && container.frames.contains { $0.disposal == .background }
        return Image(
            pixels: output.shape(first), scale: options.scaleFactor, format: .gif, animation: animation,
            hasAlpha: container.hasTransparency || clears || !first.isOpaque,
            originalPixelSize: container.canvasSize,
            colorProfile: options.colorPolicy == .ignore
                ? nil : bytes.withUnsafeBytes { container.applicationExtensions.colorProfile(in: $0) })
    }
}
