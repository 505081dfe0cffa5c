public import Foundation

extension ImageFormat {
    /// Identifies the format of encoded image bytes by their magic numbers.
    ///
    /// PNG files whose `acTL` chunk precedes the first `IDAT` are reported as ``apng``.
    /// Anything unrecognised is ``undefined``.
    ///
    /// ```swift
    /// ImageFormat.detect(in: Data([0xFF, 0xD8, 0xFF, 0xE0])) // .jpeg
    /// ```
    public static func detect(in data: Data) -> ImageFormat {
        data.withUnsafeBytes { detect(in: $0) }
    }

    /// Identifies the format of encoded image bytes by their magic numbers.
    public static func detect(in bytes: [UInt8]) -> ImageFormat {
        bytes.withUnsafeBytes { detect(in: $0) }
    }

    /// Identifies the format of encoded image bytes by their magic numbers.
    public static func detect(in bytes: UnsafeRawBufferPointer) -> ImageFormat {
        let sniffer = MagicBytes(bytes)
        if sniffer.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if sniffer.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return sniffer.pngHasAnimationControl ? .apng : .png
        }
        if sniffer.starts(with: Array("GIF87a".utf8)) || sniffer.starts(with: Array("GIF89a".utf8)) { return .gif }
        if sniffer.starts(with: Array("RIFF".utf8)) && sniffer.matches(Array("WEBP".utf8), at: 8) { return .webp }
        if sniffer.starts(with: [0x49, 0x49, 0x2A, 0x00]) || sniffer.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if sniffer.matches(Array("ftyp".utf8), at: 4), let brand = sniffer.isoBrandFormat { return brand }
        if sniffer.starts(with: [0xFF, 0x0A])
            || sniffer.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
        {
            return .jpegXL
        }
        if sniffer.starts(with: Array("BM".utf8)) { return .bmp }
        if sniffer.starts(with: [0x00, 0x00, 0x01, 0x00]) || sniffer.starts(with: [0x00, 0x00, 0x02, 0x00]) {
            return .ico
        }
        if sniffer.starts(with: Array("%PDF".utf8)) { return .pdf }
        if sniffer.looksLikeSVG { return .svg }
        if let anymap = sniffer.netpbmFormat { return anymap }
        return .undefined
    }

    /// Whether encoded bytes hold an animation: an APNG, a GIF with more than one image, or a
    /// WebP whose `VP8X` header sets the animation flag.
    public static func isAnimated(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            let sniffer = MagicBytes(bytes)
            switch detect(in: bytes) {
            case .apng: return true
            case .webp: return sniffer.webpHasAnimationFlag
            case .gif: return sniffer.gifImageCountAtLeastTwo
            default: return false
            }
        }
    }
}

/// Read-only helpers over the first bytes of a file.
struct MagicBytes {
    let bytes: UnsafeRawBufferPointer
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The binary Netpbm maps: `P5` (grey), `P6` (RGB) or `P7` (PAM), followed by whitespace.
    var netpbmFormat: ImageFormat? {
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "P") else { return nil }
        switch bytes[2] {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): break
        default: return nil
        }
        switch bytes[1] {
        case UInt8(ascii: "5"): return .pgm
        case UInt8(ascii: "6"): return .ppm
        case UInt8(ascii: "7"): return .pam
        default: return nil
        }
    }

    func starts(with prefix: [UInt8]) -> Bool { matches(prefix, at: 0) }

    func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, bytes.count >= offset + pattern.count else { return false }
        for (i, byte) in pattern.enumerated() where bytes[offset + i] != byte { return false }
        return true
    }

    func uint32BE(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    /// Walks PNG chunks: `acTL` before the first `IDAT` makes an APNG.
    var pngHasAnimationControl: Bool {
        var offset = 8
        while let length = uint32BE(at: offset), offset + 8 <= bytes.count {
            if matches(Array("acTL".utf8), at: offset + 4) { return true }
            if matches(Array("IDAT".utf8), at: offset + 4) || matches(Array("IEND".utf8), at: offset + 4) {
                return false
            }
            guard length < 0x8000_0000 else { return false }
            offset += 12 + Int(length)
        }
        return false
    }

    /// The ISO-BMFF `ftyp` major brand (and, for generic brands, the compatible brands).
    var isoBrandFormat: ImageFormat? {
        func brand(at offset: Int) -> String? {
            guard offset + 4 <= bytes.count else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4]), as: UTF8.self)
        }
        func format(of brand: String) -> ImageFormat? {
            switch brand {
            case "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs": .heic
            case "avif", "avis": .avif
            case "mif1", "msf1": .heif
            default: nil
            }
        }
        guard let major = brand(at: 8) else { return nil }
        let majorFormat = format(of: major)
        guard majorFormat == .heif || majorFormat == nil else { return majorFormat }
        // Generic brands: a compatible brand may be more specific (mif1 + avif → AVIF).
        let boxSize = Int(uint32BE(at: 0) ?? 0)
        var offset = 16
        while offset + 4 <= min(boxSize, bytes.count) {
            if let compatible = brand(at: offset).flatMap(format(of:)), compatible != .heif { return compatible }
            offset += 4
        }
        return majorFormat
    }

    /// The `VP8X` feature flags' animation bit.
    var webpHasAnimationFlag: Bool {
        matches(Array("VP8X".utf8), at: 12) && bytes.count > 20 && bytes[20] & 0x02 != 0
    }

    /// Counts GIF image descriptors without decoding, stopping at two.
    var gifImageCountAtLeastTwo: Bool {
        guard bytes.count >= 13 else { return false }
        var offset = 13
        if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 0x07) + 1) }
        var images = 0
        func skipSubBlocks(_ offset: inout Int) {
            while offset < bytes.count {
                let size = Int(bytes[offset])
                offset += 1 + size
                if size == 0 { return }
            }
        }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x2C:
                images += 1
                if images >= 2 { return true }
                guard offset + 10 <= bytes.count else { return false }
                let flags = bytes[offset + 9]
                offset += 10
                if flags & 0x80 != 0 { offset += 3 << (Int(flags & 0x07) + 1) }
                offset += 1  // LZW minimum code size
                skipSubBlocks(&offset)
            case 0x21:
                offset += 2
                skipSubBlocks(&offset)
            default:
                return false
            }
        }
        return false
    }

    /// XML text whose root element is `<svg` (or a prefixed `<…:svg`): after an optional BOM, the
    /// XML declaration, processing instructions, comments and a DOCTYPE (with its internal subset)
    /// are skipped within the first 4 KiB. An HTML page with an inline `<svg>` is not an SVG; a
    /// prolog longer than the window falls back to "starts with `<` and mentions `<svg`".
    var looksLikeSVG: Bool {
        let window = Array(bytes[0..<min(bytes.count, 4096)])
        var i = 0
        if window.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        func skipSpace() { while i < window.count, [0x20, 0x09, 0x0A, 0x0D].contains(window[i]) { i += 1 } }
        func has(_ text: String, at offset: Int) -> Bool {
            let pattern = Array(text.utf8)
            return offset + pattern.count <= window.count && Array(window[offset..<offset + pattern.count]) == pattern
        }
        /// Moves past the next `terminator`; false when the window ends first.
        func skip(past terminator: String) -> Bool {
            while i < window.count {
                if has(terminator, at: i) {
                    i += terminator.utf8.count
                    return true
                }
                i += 1
            }
            return false
        }
        func fallback() -> Bool {
            let text = String(decoding: window, as: UTF8.self)
            return text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }.hasPrefix("<") && text.contains("<svg")
        }
        while true {
            skipSpace()
            guard i < window.count else { return bytes.count > window.count && fallback() }
            guard window[i] == UInt8(ascii: "<") else { return false }
            if has("<?", at: i) {
                guard skip(past: "?>") else { return fallback() }
            } else if has("<!--", at: i) {
                guard skip(past: "-->") else { return fallback() }
            } else if has("<!DOCTYPE", at: i) || has("<!doctype", at: i) {
                // Up to the `>` that closes it, outside an internal subset `[ … ]`.
                var depth = 0
                var closed = false
                while i < window.count, !closed {
                    switch window[i] {
                    case UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "]"): depth -= 1
                    case UInt8(ascii: ">") where depth <= 0: closed = true
                    default: break
                    }
                    i += 1
                }
                guard closed else { return fallback() }
            } else {
                // The root element: its name, possibly prefixed, must be `svg`.
                var end = i + 1
                while end < window.count, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(window[end]) {
                    end += 1
                }
                let name = String(decoding: window[(i + 1)..<end], as: UTF8.self)
                return name == "svg" || name.hasSuffix(":svg")
            }
        }
    }
}
