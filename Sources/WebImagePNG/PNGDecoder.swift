import Foundation
import WebImage

/// Turns PNG/APNG bytes into an ``Image``: the default image now, animation frames on demand.
enum PNGDecoder {
    /// `converter` (under ``ColorPolicy/sRGB``) converts a 16-bit image with a non-sRGB RGB profile
    /// from its 16-bit samples; the image then comes back in sRGB, without a profile.
    static func decode(_ data: Data, options: ImageDecodingOptions, converter: (any ColorConverting)? = nil) throws -> Image {
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
        // An animation's frames are converted by the manager as they are decoded, through the
        // profile the image keeps: its default image takes the same 8-bit path.
        let convertsWide = animation == nil
        let (straight, header, profile, orientation) = try data.withUnsafeBytes { bytes in
            let chunks = PNGChunkReader(bytes: bytes).chunks()
            var profile: ColorProfile?
            var profileRead = false
            func readProfile(_ header: PNGHeader) -> ColorProfile? {
                if !profileRead, options.colorPolicy != .ignore {
                    profile = PNGColorProfile.read(bytes, chunks: chunks, header: header)
                }
                profileRead = true
                return profile
            }
            let (pixels, header, converted) = try LibPNGDecoder.decode(
                bytes, maxPixelCount: options.maxPixelCount, checkSize: { try options.checkPixelLimit($0) },
                allowsWideBuffer: { options.allowsWideBuffer(pixelCount: $0) },
                wideTransform: { header in
                    guard convertsWide else { return nil }
                    return options.wideTransform(for: readProfile(header), bitDepth: header.bitDepth, converter: converter)
                })
            let kept = converted ? nil : readProfile(header)
            return (pixels, header, kept, PNGExifOrientation.orientation(in: bytes, chunks: chunks))
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
