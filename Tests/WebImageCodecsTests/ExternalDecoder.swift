import Foundation
import WebImage
import WebImageTesting

/// Independent decoders installed on the machine (Debian's djpeg, dwebp, pngtopam, giftopnm, or
/// Pillow), used to check that what our encoders write is read the same way by other software.
enum ExternalDecoder {
    /// The first of `names` found on PATH (``ExternalTool/find(_:)``).
    static func find(_ name: String) -> String? { ExternalTool.find(name) }

    /// Runs `tool` with `arguments`, feeding `input` on stdin; returns stdout, or nil on failure.
    static func run(_ tool: String, _ arguments: [String], input: Data) -> Data? {
        ExternalTool.run(tool, arguments, input: input)
    }

    /// Decodes with the Debian command-line decoder for `format`, as straight RGBA.
    /// Returns nil when no such decoder is installed.
    static func decode(_ data: Data, format: ImageFormat) throws -> PixelBuffer? {
        let command: (String, [String])?
        switch format {
        case .jpeg: command = find("djpeg").map { ($0, ["-pnm"]) }
        case .webp: command = find("dwebp").map { ($0, ["-pam", "-o", "-", "--", "-"]) }
        case .png: command = find("pngtopam").map { ($0, ["-alphapam"]) }
        case .gif: command = find("giftopnm").map { ($0, []) }
        default: command = nil
        }
        guard let (tool, arguments) = command else { return nil }
        guard let output = run(tool, arguments, input: data) else {
            throw WebImageError(.decodingFailed, "\(tool) rejected our \(format) output")
        }
        return try NetpbmReader.read(output)
    }

    /// Pillow's view of an encoded image: size, frame count and loop (nil when Pillow is absent).
    static func pillowSummary(_ data: Data) -> (width: Int, height: Int, frames: Int)? {
        guard let python = find("python3") else { return nil }
        let script = """
            import sys, io
            try:
                from PIL import Image
            except ImportError:
                sys.exit(3)
            im = Image.open(io.BytesIO(sys.stdin.buffer.read()))
            im.load()
            print(im.width, im.height, getattr(im, "n_frames", 1))
            """
        guard let output = run(python, ["-c", script], input: data) else { return nil }
        let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard fields.count == 3 else { return nil }
        return (fields[0], fields[1], fields[2])
    }
}

/// Reads the binary Netpbm formats the Debian decoders write: P5 (grey), P6 (RGB), P7 (PAM).
enum NetpbmReader {
    static func read(_ data: Data) throws -> PixelBuffer {
        let bytes = [UInt8](data)
        var offset = 0
        func token() -> String {
            while offset < bytes.count {
                if bytes[offset] == UInt8(ascii: "#") {
                    while offset < bytes.count && bytes[offset] != 0x0A { offset += 1 }
                } else if bytes[offset] == 0x20 || bytes[offset] == 0x0A || bytes[offset] == 0x0D || bytes[offset] == 0x09 {
                    offset += 1
                } else {
                    break
                }
            }
            let start = offset
            while offset < bytes.count, ![0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }
        let magic = token()
        var width = 0
        var height = 0
        var channels = 0
        switch magic {
        case "P5", "P6":
            width = Int(token()) ?? 0
            height = Int(token()) ?? 0
            _ = token()  // maxval
            channels = magic == "P5" ? 1 : 3
        case "P7":
            while true {
                let key = token()
                if key == "ENDHDR" || key.isEmpty { break }
                let value = token()
                switch key {
                case "WIDTH": width = Int(value) ?? 0
                case "HEIGHT": height = Int(value) ?? 0
                case "DEPTH": channels = Int(value) ?? 0
                default: break
                }
            }
        default:
            throw WebImageError(.badImageData, "not a binary Netpbm image: \(magic)")
        }
        offset += 1  // the single whitespace after the header
        guard width > 0, height > 0, (1...4).contains(channels), bytes.count - offset >= width * height * channels else {
            throw WebImageError(.badImageData, "truncated Netpbm image \(width)x\(height)x\(channels)")
        }
        return PixelBuffer(width: width, height: height, alphaMode: .straight) { out in
            for i in 0..<(width * height) {
                let s = offset + i * channels
                switch channels {
                case 1, 2:
                    out[4 * i] = bytes[s]
                    out[4 * i + 1] = bytes[s]
                    out[4 * i + 2] = bytes[s]
                    out[4 * i + 3] = channels == 2 ? bytes[s + 1] : 255
                default:
                    out[4 * i] = bytes[s]
                    out[4 * i + 1] = bytes[s + 1]
                    out[4 * i + 2] = bytes[s + 2]
                    out[4 * i + 3] = channels == 4 ? bytes[s + 3] : 255
                }
            }
        }
    }
}
