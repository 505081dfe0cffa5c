import CJPEGShim
import Foundation
import WebImage

extension JPEGDecompression {
    /// The ICC profile of the APP2 segments read with the header, or nil when there is none or it
    /// is incomplete.
    ///
    /// A profile too large for one segment is split over several, each `ICC_PROFILE\0`, its
    /// 1-based sequence number and the count, then its part (ICC.1, annex B.4); they are put in
    /// sequence order whatever order the file has them in. A missing, repeated or out-of-range
    /// part, or parts disagreeing on the count, make the profile unusable (nil), as a wrong
    /// profile would be worse than none.
    func colorProfile() -> ColorProfile? {
        let signature = Array("ICC_PROFILE\0".utf8)
        var parts: [Int: Data] = [:]
        var declaredCount: Int?
        var index: Int32 = 0
        var data: UnsafePointer<UInt8>?
        var length = 0
        while webimage_jpeg_app2_segment(decoder, index, &data, &length) == 1, let data {
            index += 1
            let segment = UnsafeBufferPointer(start: data, count: length)
            guard length > signature.count + 2, segment.prefix(signature.count).elementsEqual(signature) else { continue }
            let sequence = Int(segment[signature.count])
            let count = Int(segment[signature.count + 1])
            guard count > 0, sequence >= 1, sequence <= count, declaredCount == nil || declaredCount == count,
                parts[sequence] == nil
            else { return nil }
            declaredCount = count
            parts[sequence] = Data(segment.dropFirst(signature.count + 2))
        }
        guard let declaredCount, parts.count == declaredCount else { return nil }
        var profile = Data()
        for sequence in 1...declaredCount {
            guard let part = parts[sequence], profile.count + part.count <= ColorProfile.maxByteCount else { return nil }
            profile.append(part)
        }
        return ColorProfile(iccData: profile)
    }
}

extension JPEGEncoder {
    /// `jpeg` with `profile` in APP2 segments (`ICC_PROFILE\0`, sequence, count, part of at most
    /// 65,519 bytes) after its leading APP0, when the profile is RGB (what the encoder writes);
    /// else `jpeg` unchanged.
    static func embedding(_ profile: ColorProfile, in jpeg: Data) -> Data {
        guard profile.colorSpace == .rgb, jpeg.count > 4 else { return jpeg }
        let signature = Array("ICC_PROFILE\0".utf8)
        let partSize = 65_535 - 2 - signature.count - 2
        let bytes = [UInt8](profile.data)
        let parts = stride(from: 0, to: bytes.count, by: partSize).map { bytes[$0..<min($0 + partSize, bytes.count)] }
        guard parts.count <= 255 else { return jpeg }
        var segments: [UInt8] = []
        for (index, part) in parts.enumerated() {
            let length = 2 + signature.count + 2 + part.count
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + signature + [UInt8(index + 1), UInt8(parts.count)] + part
        }
        // After SOI and a JFIF APP0 when there is one.
        var insertAt = 2
        if jpeg[jpeg.startIndex + 2] == 0xFF, jpeg[jpeg.startIndex + 3] == 0xE0, jpeg.count > 6 {
            insertAt = 4 + (Int(jpeg[jpeg.startIndex + 4]) << 8 | Int(jpeg[jpeg.startIndex + 5]))
        }
        guard insertAt <= jpeg.count else { return jpeg }
        var out = Data(jpeg.prefix(insertAt))
        out.append(contentsOf: segments)
        out.append(jpeg.dropFirst(insertAt))
        return out
    }
}
