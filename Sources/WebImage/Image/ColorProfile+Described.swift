import Foundation

extension ColorProfile {
    /// A colour space named by code points rather than an ICC profile: ITU-T H.273's colour
    /// primaries and transfer characteristics, as AVIF and HEIF `colr` boxes of type `nclx` and
    /// PNG's `cICP` chunk carry them.
    public struct CodePoints: Sendable, Hashable {
        /// H.273 ColourPrimaries (1 BT.709/sRGB, 9 BT.2020, 12 Display P3…).
        public var primaries: Int
        /// H.273 TransferCharacteristics (13 sRGB, 8 linear, 16 PQ…).
        public var transfer: Int

        public init(primaries: Int, transfer: Int) {
            self.primaries = primaries
            self.transfer = transfer
        }
    }

    /// The ICC profile equivalent to `codePoints`; nil when they mean sRGB (BT.709 primaries with
    /// the sRGB curve or the BT.709 family of curves, taken as sRGB for display as browsers do, or
    /// "unspecified"), and nil for what an 8-bit sRGB pipeline cannot show (PQ and HLG, which are
    /// HDR) or for reserved values: the pixels are then shown as stored.
    ///
    /// ```swift
    /// let p3 = ColorProfile(codePoints: .init(primaries: 12, transfer: 13))   // Display P3
    /// ```
    public init?(codePoints: CodePoints) {
        let primaries: Chromaticities
        switch codePoints.primaries {
        case 1, 2: primaries = .bt709  // 2: unspecified
        case 5: primaries = Chromaticities(red: (0.64, 0.33), green: (0.29, 0.60), blue: (0.15, 0.06), white: Chromaticities.d65)
        case 6, 7: primaries = Chromaticities(red: (0.630, 0.340), green: (0.310, 0.595), blue: (0.155, 0.070), white: Chromaticities.d65)
        case 9: primaries = Chromaticities(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), white: Chromaticities.d65)
        case 11: primaries = Chromaticities(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: (0.314, 0.351))
        case 12: primaries = Chromaticities(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: Chromaticities.d65)
        default: return nil
        }
        let curve: ToneCurve
        switch codePoints.transfer {
        case 1, 2, 6, 13, 14, 15: curve = .sRGB  // the BT.709 family is shown as sRGB, as browsers do
        case 4: curve = .gamma(2.2)
        case 5: curve = .gamma(2.8)
        case 8: curve = .gamma(1)
        default: return nil
        }
        if primaries == .bt709 && curve == .sRGB { return nil }
        guard let data = ICCWriter.profile(primaries: primaries, curve: curve, description: "H.273 \(codePoints.primaries)/\(codePoints.transfer)")
        else { return nil }
        self.init(iccData: data)
    }

    /// The ICC profile equivalent to PNG's `gAMA` (the file gamma × 100000) and `cHRM` (white, red,
    /// green, blue xy × 100000) chunks; nil when they describe sRGB for practical purposes (a file
    /// gamma of 1/2.2 ± 1 % with sRGB's or no chromaticities, what most encoders write beside
    /// sRGB data) or are out of range.
    public init?(pngGamma gamma: UInt32?, chromaticities: [UInt32]?) {
        var primaries = Chromaticities.bt709
        if let values = chromaticities, values.count == 8 {
            let xy = values.map { Double($0) / 100_000 }
            guard xy.allSatisfy({ $0 > 0 && $0 < 1 }) else { return nil }
            primaries = Chromaticities(red: (xy[2], xy[3]), green: (xy[4], xy[5]), blue: (xy[6], xy[7]), white: (xy[0], xy[1]))
        }
        var curve = ToneCurve.sRGB
        if let gamma {
            guard gamma >= 10_000, gamma <= 1_000_000 else { return nil }
            let exponent = 100_000 / Double(gamma)
            if abs(exponent - 2.2) > 0.022 { curve = .gamma(exponent) }
        }
        if curve == .sRGB && primaries.isClose(to: .bt709) { return nil }
        guard let data = ICCWriter.profile(primaries: primaries, curve: curve, description: "PNG gAMA/cHRM") else { return nil }
        self.init(iccData: data)
    }
}

/// Primaries and white point, CIE xy.
struct Chromaticities: Equatable {
    var red: (Double, Double)
    var green: (Double, Double)
    var blue: (Double, Double)
    var white: (Double, Double)

    static let d65 = (0.3127, 0.3290)
    static let bt709 = Chromaticities(red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), white: d65)

    static func == (a: Chromaticities, b: Chromaticities) -> Bool {
        [a.red, a.green, a.blue, a.white].elementsEqual([b.red, b.green, b.blue, b.white]) { $0 == $1 }
    }

    /// Within 0.001 in every coordinate (cHRM's precision is 0.00001; writers round sRGB's values).
    func isClose(to other: Chromaticities) -> Bool {
        zip([red, green, blue, white], [other.red, other.green, other.blue, other.white]).allSatisfy {
            abs($0.0 - $1.0) < 0.001 && abs($0.1 - $1.1) < 0.001
        }
    }
}

/// A display tone curve: sRGB's piecewise curve or a pure power.
enum ToneCurve: Equatable {
    case sRGB
    case gamma(Double)
}

/// Writes a small ICC v4 display profile (matrix and tone curves, D50 connection space) for a
/// colour space given by primaries and a curve: what lcms2's `cmsCreateRGBProfile` makes, written
/// here so that decoders need no colour engine to describe what they read.
enum ICCWriter {
    /// The profile, or nil when the primaries make no usable matrix (degenerate, or values beyond
    /// what ICC's s15Fixed16 numbers hold).
    static func profile(primaries: Chromaticities, curve: ToneCurve, description: String) -> Data? {
        let columns = adaptedColumns(primaries)
        let chad = bradford(from: primaries.white)
        let values = columns.flatMap { $0 } + chad.flatMap { $0 }
        guard values.allSatisfy({ $0.isFinite && abs($0) < 32_767 }) else { return nil }
        let d50 = [0.9642, 1.0, 0.8249]
        var tags: [(String, [UInt8])] = [
            ("desc", mluc(description)),
            ("wtpt", xyz(d50)),
            ("rXYZ", xyz(columns[0])), ("gXYZ", xyz(columns[1])), ("bXYZ", xyz(columns[2])),
            ("chad", sf32(chad.flatMap { $0 })),
        ]
        let trc = para(curve)
        tags += [("rTRC", trc), ("gTRC", trc), ("bTRC", trc)]

        let tableSize = 4 + 12 * tags.count
        var offset = 128 + tableSize
        var table = be32(UInt32(tags.count))
        var body: [UInt8] = []
        for (signature, data) in tags {
            table += Array(signature.utf8) + be32(UInt32(offset)) + be32(UInt32(data.count))
            var padded = data
            while padded.count % 4 != 0 { padded.append(0) }
            body += padded
            offset += padded.count
        }
        var header = [UInt8](repeating: 0, count: 128)
        func put(_ bytes: [UInt8], at position: Int) { header.replaceSubrange(position..<position + bytes.count, with: bytes) }
        put(be32(UInt32(128 + tableSize + body.count)), at: 0)
        put([0x04, 0x30, 0, 0], at: 8)  // version 4.3
        put(Array("mntrRGB XYZ ".utf8), at: 12)
        put([0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0], at: 24)  // 2026-01-01
        put(Array("acsp".utf8), at: 36)
        put(s15(d50), at: 68)
        return Data(header + table + body)
    }

    /// The RGB → XYZ matrix's columns for `primaries`, adapted to D50 (Bradford), as ICC wants.
    static func adaptedColumns(_ primaries: Chromaticities) -> [[Double]] {
        func xyz(_ xy: (Double, Double)) -> [Double] { [xy.0 / xy.1, 1, (1 - xy.0 - xy.1) / xy.1] }
        let m = transpose([xyz(primaries.red), xyz(primaries.green), xyz(primaries.blue)])
        let scale = multiply(invert(m), xyz(primaries.white))
        let rgbToXYZ = m.map { row in zip(row, scale).map { $0 * $1 } }
        let adapted = product(bradford(from: primaries.white), rgbToXYZ)
        return transpose(adapted)
    }

    /// Bradford chromatic adaptation from `white` to D50.
    static func bradford(from white: (Double, Double)) -> [[Double]] {
        let b = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
        let source = multiply(b, [white.0 / white.1, 1, (1 - white.0 - white.1) / white.1])
        let target = multiply(b, [0.9642, 1.0, 0.8249])
        let scale = (0..<3).map { i in (0..<3).map { j in i == j ? target[i] / source[i] : 0 } }
        return product(invert(b), product(scale, b))
    }

    // MARK: Tag types

    static func mluc(_ text: String) -> [UInt8] {
        let utf16 = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        return Array("mluc".utf8) + be32(0) + be32(1) + be32(12) + Array("enUS".utf8) + be32(UInt32(utf16.count)) + be32(28) + utf16
    }

    static func xyz(_ value: [Double]) -> [UInt8] { Array("XYZ ".utf8) + be32(0) + s15(value) }

    static func sf32(_ values: [Double]) -> [UInt8] { Array("sf32".utf8) + be32(0) + s15(values) }

    static func para(_ curve: ToneCurve) -> [UInt8] {
        switch curve {
        case .sRGB:
            return Array("para".utf8) + be32(0) + [0, 3, 0, 0] + s15([2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        case .gamma(let exponent):
            return Array("para".utf8) + be32(0) + [0, 0, 0, 0] + s15([exponent])
        }
    }

    static func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    /// s15Fixed16 numbers, big-endian.
    static func s15(_ values: [Double]) -> [UInt8] {
        values.flatMap { be32(UInt32(bitPattern: Int32((($0 * 65536).rounded())))) }
    }

    // MARK: 3×3 algebra

    static func transpose(_ m: [[Double]]) -> [[Double]] { (0..<3).map { j in (0..<3).map { i in m[i][j] } } }

    static func multiply(_ m: [[Double]], _ v: [Double]) -> [Double] { m.map { row in zip(row, v).reduce(0) { $0 + $1.0 * $1.1 } } }

    static func product(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    /// The inverse (non-finite entries for a singular matrix, which ``profile(primaries:curve:description:)`` refuses).
    static func invert(_ m: [[Double]]) -> [[Double]] {
        let (a, b, c) = (m[0][0], m[0][1], m[0][2])
        let (d, e, f) = (m[1][0], m[1][1], m[1][2])
        let (g, h, i) = (m[2][0], m[2][1], m[2][2])
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        return [
            [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
        ]
    }
}
