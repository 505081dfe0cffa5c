public import Foundation

extension ImageMetadata {
    /// The TIFF structure of an HEIF or AVIF Exif item (ISO/IEC 23008-12 puts a 4-byte offset to
    /// the TIFF header before it): `payload` as it is when it starts with a TIFF header, else from
    /// the header the offset points at (when in bounds), else `payload` unchanged.
    ///
    /// ```swift
    /// let exif = ImageMetadata.tiffStructure(inExifItem: itemPayload)
    /// ```
    public static func tiffStructure(inExifItem payload: Data) -> Data {
        let bytes = [UInt8](payload)
        func isTIFF(at offset: Int) -> Bool {
            offset >= 0 && offset + 4 <= bytes.count
                && (bytes[offset..<offset + 4].elementsEqual([0x49, 0x49, 42, 0])
                    || bytes[offset..<offset + 4].elementsEqual([0x4D, 0x4D, 0, 42]))
        }
        if isTIFF(at: 0) { return payload }
        guard bytes.count >= 8 else { return payload }
        let offset = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard offset <= bytes.count - 8 else { return payload }
        if isTIFF(at: 4 + offset) { return Data(bytes[(4 + offset)...]) }
        // Some writers put "Exif\0\0" before the TIFF header and count from it.
        return isTIFF(at: 4 + offset + 6) ? Data(bytes[(4 + offset + 6)...]) : payload
    }
}
