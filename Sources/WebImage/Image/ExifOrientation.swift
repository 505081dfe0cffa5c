/// Reads the orientation tag (274) from IFD0 of an EXIF TIFF structure, bounds-checked throughout.
///
/// Shared by every coder whose container carries EXIF (JPEG's APP1, WebP's `EXIF` chunk).
///
/// ```swift
/// let orientation = ExifOrientationReader.orientation(inTIFF: exifPayload) ?? .up
/// ```
public enum ExifOrientationReader {
    /// The orientation in `payload` (a TIFF structure, optionally prefixed by `Exif\0\0`), or `nil`
    /// when the structure is malformed or has no valid orientation. SHORT and LONG values are read.
    public static func orientation(inTIFF payload: [UInt8]) -> ImageOrientation? {
        let exifPrefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
        let tiff = payload.starts(with: exifPrefix) ? Array(payload.dropFirst(6)) : payload
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        let reader = ExifByteReader(bytes: tiff, bigEndian: bigEndian)
        guard reader.uint16(at: 2) == 42, let ifdOffset = reader.uint32(at: 4) else { return nil }
        let ifd = Int(ifdOffset)
        guard let entryCount = reader.uint16(at: ifd) else { return nil }
        for index in 0..<Int(entryCount) {
            let entry = ifd + 2 + index * 12
            guard let tag = reader.uint16(at: entry), let type = reader.uint16(at: entry + 2) else { return nil }
            guard tag == 0x0112 else { continue }
            let value: Int?
            switch type {
            case 3: value = reader.uint16(at: entry + 8).map(Int.init)  // SHORT
            case 4: value = reader.uint32(at: entry + 8).map(Int.init)  // LONG, written by a few tools
            default: value = nil
            }
            return value.flatMap { ImageOrientation(rawValue: $0) }
        }
        return nil
    }
}
