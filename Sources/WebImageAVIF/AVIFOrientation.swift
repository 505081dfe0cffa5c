import CAVIF
import WebImage

/// The container's `irot`/`imir` transforms as an EXIF orientation.
///
/// AVIF stores rotation (`irot`, anti-clockwise quarter turns) and mirroring (`imir`, mode 0
/// exchanges top and bottom, mode 1 left and right), applied in that order. WebImage carries them
/// as ``Image/orientation`` and never applies them to the pixels, as for JPEG's EXIF tag; an Exif
/// or XMP orientation inside an AVIF is not read (the transforms are the format's own, and
/// browsers ignore the others).
enum AVIFOrientation {
    /// The orientation that displays the stored pixels as the transforms say.
    static func orientation(of image: avifImage) -> ImageOrientation {
        let flags = image.transformFlags
        let turns = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle & 3) : 0
        let mirror: UInt8? = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? image.imir.mode & 1 : nil
        return orientation(quarterTurnsAntiClockwise: turns, mirrorMode: mirror)
    }

    /// Rotation by `turns` × 90° anti-clockwise, then the mirror (0: top ↔ bottom, 1: left ↔ right).
    static func orientation(quarterTurnsAntiClockwise turns: Int, mirrorMode: UInt8?) -> ImageOrientation {
        switch (turns & 3, mirrorMode) {
        case (0, nil): .up
        case (1, nil): .left
        case (2, nil): .down
        case (3, nil): .right
        case (0, 0), (2, 1): .downMirrored
        case (0, _), (2, _): .upMirrored
        case (1, 0), (3, 1): .leftMirrored
        default: .rightMirrored  // (1, 1), (3, 0)
        }
    }
}
