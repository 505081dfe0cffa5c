import Foundation
import WebImage

/// Turns PNG/APNG bytes into an ``Image``: the default image now, animation frames on demand.
enum PNGDecoder {
    static func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        // The animation control data is read first: a file that ends before its declared frames
        // is refused like any truncated PNG.
        var animation: APNGAnimationInfo?
        var isAPNG = false
        if !options.firstFrameOnly {
            // Frames are counted against the animation budget as the parser meets them.
            let outcome = try data.withUnsafeBytes { try APNGControlParser.parse($0, budget: options) }
            switch outcome {
            case .animated(let info):
                animation = info
                isAPNG = true
            case .still:
                break
            }
        }
        let (straight, header, profile, orientation) = try data.withUnsafeBytes { bytes in
            let (pixels, header) = try LibPNGDecoder.decode(bytes, maxPixelCount: options.maxPixelCount) { size in
                try options.checkPixelLimit(size)
            }
            let chunks = PNGChunkReader(bytes: bytes).chunks()
            let profile = options.colorPolicy == .ignore ? nil : PNGColorProfile.read(bytes, chunks: chunks, header: header)
            return (pixels, header, profile, PNGExifOrientation.orientation(in: bytes, chunks: chunks))
        }
        if !isAPNG { isAPNG = ImageFormat.detect(in: data) == .apng }

        // A single animation frame that is the default image is nothing to animate.
        if let info = animation, info.frames.count == 1, info.defaultImageIsFirstFrame { animation = nil }

        let target = options.targetSize(for: header.size, frameCount: animation?.frames.count ?? 1, orientation: orientation)
        var pixels = straight.converted(to: options.alphaMode)
        if target != pixels.size {
            let full = pixels
            pixels = Resampler.resample(full, to: target)
            PixelStoragePool.shared.recycle(full)  // only the resampler's input
        }
        let source = animation.map { info in
            APNGFrameSource(data: data, info: info, outputSize: target, alphaMode: options.alphaMode)
        }
        return Image(
            pixels: pixels, scale: options.scaleFactor, orientation: orientation, format: isAPNG ? .apng : .png, animation: source,
            hasAlpha: header.hasAlpha, originalPixelSize: header.size, colorProfile: profile)
    }
}
