public import Foundation
public import WebImage

extension JXLCoder: ImageHeaderReading {
    /// Reads a JPEG XL's basic info (size, alpha, orientation), the colour space it was encoded
    /// from and, for an animation, its frame headers (count, durations; no pixels) and loop count.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        guard canDecode(data) else { throw WebImageError.badData("not JPEG XL data (no codestream or container signature)") }
        let container = try JXLContainer.read(data.withUnsafeBytes { OwnedBytes($0) }, readsColorProfile: true)
        let info = container.info
        let animated = container.durations.count > 1
        return ImageHeader(
            format: .jpegXL, pixelSize: info.pixelSize, frameCount: container.durations.count,
            loopCount: animated ? Int(info.animation.num_loops) : nil,
            frameDurations: animated ? container.durations.map(FrameDurationRule.played) : nil,
            storedFrameDurations: animated ? container.durations : nil, hasAlpha: info.hasAlphaChannel,
            orientation: info.imageOrientation, colorProfile: container.colorProfile)
    }
}
