import WebImage

/// The header of a binary Netpbm map (`P5`, `P6` or `P7`), and where its raster starts.
///
/// Read token by token from the bytes, with `#` comments skipped; every number is bounded (nine
/// digits at most) so that no header can overflow, and nothing is allocated in proportion to the
/// declared size.
struct PNMHeader: Equatable {
    /// ``ImageFormat/pgm``, ``ImageFormat/ppm`` or ``ImageFormat/pam``.
    var format: ImageFormat
    var size: PixelSize
    /// Samples a pixel: 1 (grey), 2 (grey, alpha), 3 (RGB) or 4 (RGB, alpha).
    var channels: Int
    /// The largest sample value, 1–255 (16-bit maps are refused).
    var maxValue: Int
    /// Where the raster starts in the bytes.
    var rasterOffset: Int

    var hasAlpha: Bool { channels == 2 || channels == 4 }

    /// Bytes of raster the header declares (after its size was checked, so no overflow).
    var rasterByteCount: Int { size.pixelCount * channels }

    /// Reads the header at the start of `bytes`.
    ///
    /// Throws ``WebImageError/Code/badImageData`` for a missing, malformed or truncated header and
    /// ``WebImageError/Code/unsupportedFormat`` for 16-bit samples and PAM depths other than 1–4.
    static func read(_ bytes: UnsafeRawBufferPointer) throws -> PNMHeader {
        guard let format = MagicNumber.format(of: bytes) else {
            throw WebImageError.badData("not a binary Netpbm map (no P5, P6 or P7 signature)")
        }
        var reader = Reader(bytes: bytes, offset: 2)
        if format == .pam { return try readPAM(&reader) }
        let width = try reader.number("width")
        let height = try reader.number("height")
        let maxValue = try reader.number("maximum value")
        // Exactly one whitespace byte separates the maximum value from the raster.
        guard reader.offset < bytes.count, Reader.isSpace(bytes[reader.offset]) else {
            throw WebImageError.badData("Netpbm header ends without the whitespace before the raster")
        }
        let header = PNMHeader(
            format: format, size: PixelSize(width: width, height: height), channels: format == .pgm ? 1 : 3,
            maxValue: maxValue, rasterOffset: reader.offset + 1)
        try header.checkMaxValue()
        return header
    }

    /// PAM: `WIDTH`, `HEIGHT`, `DEPTH`, `MAXVAL` and an optional `TUPLTYPE` line each, up to `ENDHDR`.
    private static func readPAM(_ reader: inout Reader) throws -> PNMHeader {
        var width: Int?, height: Int?, depth: Int?, maxValue: Int?
        while true {
            guard let keyword = reader.word() else { throw WebImageError.badData("PAM header ends before ENDHDR") }
            switch keyword {
            case "WIDTH": width = try reader.number("WIDTH")
            case "HEIGHT": height = try reader.number("HEIGHT")
            case "DEPTH": depth = try reader.number("DEPTH")
            case "MAXVAL": maxValue = try reader.number("MAXVAL")
            case "TUPLTYPE": reader.skipLine()
            case "ENDHDR":
                guard reader.skipLine() else { throw WebImageError.badData("PAM header ends without a newline after ENDHDR") }
                guard let width, let height, let depth, let maxValue else {
                    throw WebImageError.badData("PAM header lacks one of WIDTH, HEIGHT, DEPTH and MAXVAL")
                }
                guard (1...4).contains(depth) else {
                    throw WebImageError(.unsupportedFormat, "PAM depth \(depth) (only 1–4: grey, grey+alpha, RGB, RGB+alpha)")
                }
                let header = PNMHeader(
                    format: .pam, size: PixelSize(width: width, height: height), channels: depth, maxValue: maxValue,
                    rasterOffset: reader.offset)
                try header.checkMaxValue()
                return header
            default:
                throw WebImageError.badData("unknown PAM header line '\(keyword.prefix(16))'")
            }
        }
    }

    private func checkMaxValue() throws {
        guard maxValue >= 1 else { throw WebImageError.badData("Netpbm maximum value \(maxValue)") }
        guard maxValue <= 255 else {
            throw WebImageError(.unsupportedFormat, "16-bit Netpbm maps (maximum value \(maxValue)) are not read")
        }
    }
}

/// The signatures of the binary maps.
enum MagicNumber {
    static func format(of bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        let detected = ImageFormat.detect(in: bytes)
        return [.pgm, .ppm, .pam].contains(detected) ? detected : nil
    }
}

/// Whitespace-separated ASCII tokens, with `#` comments to the end of the line.
private struct Reader {
    let bytes: UnsafeRawBufferPointer
    var offset: Int

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// Moves past whitespace and comments.
    mutating func skipSpace() {
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "#") {
                while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 }
            } else if Self.isSpace(byte) {
                offset += 1
            } else {
                return
            }
        }
    }

    /// A decimal number of at most nine digits (so any product of two fits in an `Int`).
    mutating func number(_ what: String) throws -> Int {
        skipSpace()
        var value = 0
        var digits = 0
        while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
            guard digits < 9 else { throw WebImageError.badData("Netpbm \(what) has more than nine digits") }
            value = value * 10 + Int(bytes[offset] - UInt8(ascii: "0"))
            digits += 1
            offset += 1
        }
        guard digits > 0 else { throw WebImageError.badData("Netpbm header: no \(what)") }
        return value
    }

    /// The next run of non-space bytes (at most 32), or nil at the end of the bytes.
    mutating func word() -> String? {
        skipSpace()
        let start = offset
        while offset < bytes.count, !Self.isSpace(bytes[offset]), offset - start < 32 { offset += 1 }
        guard offset > start else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    /// Moves past the rest of the line; false when the bytes end first.
    @discardableResult
    mutating func skipLine() -> Bool {
        while offset < bytes.count {
            defer { offset += 1 }
            if bytes[offset] == 0x0A { return true }
        }
        return false
    }
}
