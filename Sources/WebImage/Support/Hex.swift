package import Foundation

extension UInt8 {
    /// The value of this ASCII hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`), or nil: one reading
    /// for percent-decoding (`data:` URLs) and hex keys (`serve`'s signing keys, Redis entry keys
    /// and MACs).
    package var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Data {
    /// Bytes from an even-length hexadecimal string (either case), nil otherwise.
    package init?(hexString: some StringProtocol) {
        let digits = Array(hexString.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = digits[index].hexDigitValue, let low = digits[index + 1].hexDigitValue else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self = bytes
    }
}

extension Sequence<UInt8> {
    /// The bytes as lowercase hexadecimal, two digits each (digests, ETags, MACs, key ids).
    package var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
