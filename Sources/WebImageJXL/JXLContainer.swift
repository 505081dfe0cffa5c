import CJXL
import WebImage

/// What a JPEG XL file holds, read without decoding pixels: the basic info and, for
/// animations, every displayed frame's duration.
struct JXLContainer {
    var info: JxlBasicInfo
    /// Each displayed frame's duration in seconds (one entry, 0, for still images).
    var durations: [Double]
    /// The colour profile the image was encoded from, when it is not sRGB.
    var colorProfile: ColorProfile? = nil

    /// Reads the basic info and walks the frame headers (no pixels), stopping after
    /// `maxFrames` frames (the caller's animation budget) or at the first frame with
    /// `firstFrameOnly`. A still image's colour encoding is read only with `readsColorProfile`
    /// (an animation's comes before its first frame header anyway).
    static func read(
        _ bytes: OwnedBytes, maxFrames: Int = .max, firstFrameOnly: Bool = false, readsColorProfile: Bool = false
    ) throws -> JXLContainer {
        let stream = try JXLStream(bytes: bytes, wantsPixels: false)
        let info = try stream.readInfo()
        guard info.xsize > 0, info.ysize > 0 else {
            throw WebImageError.badData("JPEG XL image has the empty size \(info.xsize)×\(info.ysize)")
        }
        guard info.isAnimated, !firstFrameOnly else {
            // The colour encoding comes before the first frame's header; a file cut short there
            // still has its size.
            if readsColorProfile { _ = try? stream.nextFrame() }
            return JXLContainer(info: info, durations: [0], colorProfile: stream.originalProfile)
        }
        var durations: [Double] = []
        while durations.count < maxFrames, let header = try stream.nextFrame() {
            durations.append(info.seconds(ticks: header.duration))
        }
        guard !durations.isEmpty else { throw WebImageError.badData("JPEG XL animation has no frames") }
        return JXLContainer(info: info, durations: durations, colorProfile: stream.originalProfile)
    }
}
