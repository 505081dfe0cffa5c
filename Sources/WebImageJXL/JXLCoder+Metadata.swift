public import Foundation
public import WebImage

extension JXLCoder: ImageMetadataReading {
    /// The `Exif` and `xml ` (XMP) boxes of a JPEG XL container, read from the box headers
    /// without libjxl. A bare codestream has none; Brotli-compressed (`brob`) boxes are skipped.
    public func readMetadata(_ data: Data) -> ImageMetadata? {
        data.withUnsafeBytes { bytes -> ImageMetadata? in
            var boxes = ISOBMFFBoxReader(bytes: bytes, start: 0, end: bytes.count)
            guard let signature = boxes.next(), signature.type == ISOBMFFBoxReader.fourCC("JXL ") else { return nil }
            var exif: Data?
            var xmp: Data?
            while let box = boxes.next() {
                let body = Data(bytes[box.body])
                switch box.type {
                case ISOBMFFBoxReader.fourCC("Exif") where exif == nil:
                    // A 4-byte offset to the TIFF header, then the structure.
                    guard let offset = ISOBMFFBoxReader.read(bytes, at: box.body.lowerBound, bytes: 4),
                        offset <= body.count - 4
                    else { continue }
                    exif = body.dropFirst(4 + offset)
                case ISOBMFFBoxReader.fourCC("xml ") where xmp == nil:
                    xmp = body
                default:
                    continue
                }
            }
            let metadata = ImageMetadata(exif: exif.map { Data($0) }, xmp: xmp)
            return metadata.isEmpty ? nil : metadata
        }
    }
}
