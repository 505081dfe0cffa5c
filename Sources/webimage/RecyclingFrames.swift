import Synchronization
import WebImageCodecs

/// The frames of an animation being transcoded, handed to an encoder that reads them in order:
/// the frame from two requests ago goes back to ``PixelStoragePool/shared``, so the next frame
/// decode writes into memory that is already mapped (the encoders hold at most the frame they
/// encode and the one before it; a frame still held anyway is only shared, never overwritten).
final class RecyclingFrames: AnimatedImageSource {
    private let base: any AnimatedImageSource
    private let recent = Mutex<[PixelBuffer]>([])

    init(_ base: any AnimatedImageSource) {
        self.base = base
    }

    var frameCount: Int { base.frameCount }
    var loopCount: Int { base.loopCount }
    var canvasSize: PixelSize { base.canvasSize }
    func duration(at index: Int) -> Double { base.duration(at: index) }
    func storedDuration(at index: Int) -> Double { base.storedDuration(at: index) }

    func frame(at index: Int) throws -> AnimationFrame {
        let frame = try base.frame(at: index)
        let done = recent.withLock { recent -> PixelBuffer? in
            recent.append(frame.pixels)
            return recent.count > 2 ? recent.removeFirst() : nil
        }
        if let done { PixelStoragePool.shared.recycle(done) }
        return frame
    }
}

extension Image {
    /// This image with its animation read through ``RecyclingFrames`` (itself when still).
    var recyclingFrames: Image {
        guard let animation, animation.frameCount > 1 else { return self }
        return Image(
            pixels: pixels, scale: scale, orientation: orientation, format: format,
            animation: RecyclingFrames(animation), hasAlpha: hasAlpha, originalPixelSize: originalPixelSize,
            colorProfile: colorProfile, metadata: metadata)
    }
}
