public import Foundation
public import WebImage

extension WebPCoder: ImageHeaderReading {
    /// Reads a WebP's header without decoding pixels: `WebPGetFeatures` for the size and alpha,
    /// the demuxer for an animation's frames, loop count and durations, and the `EXIF` orientation.
    ///
    /// A still image's size is reported even when the rest of the file is missing; an animation
    /// needs its whole container.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        guard canDecode(data) else { throw WebImageError.badData("not WebP data (no RIFF/WEBP header)") }
        return try data.withUnsafeBytes { bytes in
            let (header, status) = WebPHeader.read(bytes)
            guard let header else {
                throw WebPStatus.error(for: status, while: "reading the header")
                    ?? WebImageError.badData("WebP header has no size")
            }
            let orientation = WebPMetadataChunks.orientation(in: bytes)
            let profile = WebPMetadataChunks.colorProfile(in: bytes)
            guard header.isAnimated else {
                return ImageHeader(
                    format: .webp, pixelSize: header.size, hasAlpha: header.hasAlpha, orientation: orientation,
                    colorProfile: profile)
            }
            let animation = try WebPAnimationInfo(bytes: OwnedBytes(bytes))
            let animated = animation.frameCount > 1
            return ImageHeader(
                format: .webp, pixelSize: header.size, frameCount: animation.frameCount,
                loopCount: animated ? animation.loopCount : nil,
                frameDurations: animated ? animation.storedDurations.map(FrameDurationRule.played) : nil,
                storedFrameDurations: animated ? animation.storedDurations : nil,
                hasAlpha: header.hasAlpha, orientation: orientation, colorProfile: profile)
        }
    }
}
