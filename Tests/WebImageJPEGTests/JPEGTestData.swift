import Foundation
import WebImage
import WebImageJPEG
import WebImageTesting

/// Hand-built and spliced JPEG bytes for the tests: every fixture is generated here or by our encoder.
enum JPEGTestData {
    /// A gradient encoded by our encoder.
    static func gradientJPEG(width: Int, height: Int, quality: Double = 0.9) throws -> Data {
        let image = Image(pixels: ImageFixtures.gradient(width: width, height: height))
        return try JPEGCoder().encode(image, as: .jpeg, options: ImageEncodingOptions(quality: quality))
    }

    /// A hand-built 16×8 greyscale baseline JPEG: its left 8×8 block decodes to grey 159, its right
    /// block to grey 128 (DC-only blocks with DC differences +31 and −31, quantiser 8).
    static let greyscaleJPEG: Data = {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xDB, [0] + [UInt8](repeating: 8, count: 64))
        bytes += segment(0xC0, [8, 0, 8, 0, 16, 1, 1, 0x11, 0])
        // One 1-bit code in each table: DC category 5, AC end-of-block.
        bytes += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [5])
        bytes += segment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0])
        bytes += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        // "0 11111 0" then "0 00000 0", padded with ones.
        bytes += [0x7C, 0x03]
        bytes += [0xFF, 0xD9]
        return Data(bytes)
    }()

    /// A marker segment: FF, marker, big-endian length, payload.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// A TIFF structure whose IFD0 holds an orientation tag (and one other tag before it).
    static func exifTIFF(orientation: Int, bigEndian: Bool, type: UInt16 = 3) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let be = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
            return bigEndian ? be : be.reversed()
        }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8)
        tiff += u16(2)
        tiff += u16(0x010F) + u16(2) + u32(4) + [0x41, 0x43, 0x4D, 0x00]  // Make = "ACM"
        let value: [UInt8] = type == 4 ? u32(UInt32(orientation)) : u16(UInt16(orientation)) + [0, 0]
        tiff += u16(0x0112) + u16(type) + u32(1) + value
        tiff += u32(0)
        return tiff
    }

    /// `jpeg` with an APP1 EXIF segment holding `tiff` inserted right after SOI.
    static func splicingEXIF(_ tiff: [UInt8], into jpeg: Data) -> Data {
        let app1 = segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)
        var bytes = [UInt8](jpeg)
        bytes.insert(contentsOf: app1, at: 2)
        return Data(bytes)
    }

    /// `jpeg` with its first SOF segment edited: a new width and height, and optionally another SOF
    /// marker type.
    static func patchingFrameHeader(of jpeg: Data, width: Int, height: Int, marker: UInt8? = nil) -> Data {
        var bytes = [UInt8](jpeg)
        var i = 2
        while i + 9 < bytes.count {
            let type = bytes[i + 1]
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if type == 0xC0 || type == 0xC2 {
                if let marker { bytes[i + 1] = marker }
                bytes[i + 5] = UInt8(height >> 8)
                bytes[i + 6] = UInt8(height & 0xFF)
                bytes[i + 7] = UInt8(width >> 8)
                bytes[i + 8] = UInt8(width & 0xFF)
                break
            }
            i += 2 + length
        }
        return Data(bytes)
    }
}
