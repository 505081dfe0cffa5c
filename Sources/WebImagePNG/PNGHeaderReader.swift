public import Foundation
public import WebImage

extension PNGCoder: ImageHeaderReading {
    /// Reads a PNG's or APNG's header without decoding pixels: IHDR and tRNS through libpng (up
    /// to the first IDAT, no row buffers), the animation from `acTL` and `fcTL`.
    ///
    /// The frame count follows the decoder's rules: broken animation control data gives the
    /// static default image (1 frame), and a file that ends before its declared frames is
    /// `badImageData`. The orientation is the `eXIf` chunk's.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        guard canDecode(data) else { throw WebImageError.badData("not PNG data (no PNG signature)") }
        return try data.withUnsafeBytes { bytes in
            let outcome = try APNGControlParser.parse(bytes)
            let header = try LibPNGDecoder.readHeader(bytes)
            let chunks = PNGChunkReader(bytes: bytes).chunks()
            var animation: APNGAnimationInfo?
            var isAPNG = ImageFormat.detect(in: data) == .apng
            if case .animated(let info) = outcome {
                isAPNG = true
                // A single animation frame that is the default image is nothing to animate.
                if !(info.frames.count == 1 && info.defaultImageIsFirstFrame) { animation = info }
            }
            return ImageHeader(
                format: isAPNG ? .apng : .png, pixelSize: header.size, frameCount: animation?.frames.count ?? 1,
                loopCount: animation?.loopCount, frameDurations: animation?.frames.map(\.duration),
                storedFrameDurations: animation?.frames.map(\.storedDuration),
                hasAlpha: header.hasAlpha, orientation: PNGExifOrientation.orientation(in: bytes, chunks: chunks),
                colorProfile: PNGColorProfile.read(bytes, chunks: chunks, header: header))
        }
    }
}
