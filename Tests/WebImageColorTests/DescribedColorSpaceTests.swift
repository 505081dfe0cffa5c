import Foundation
import Testing
import WebImage
import WebImageCodecs
import WebImageTesting

/// Colour spaces given by code points (PNG `cICP`, AVIF and HEIF `nclx`) or by PNG's `gAMA` and
/// `cHRM`, turned into ICC profiles by `ColorProfile(codePoints:)` and
/// `ColorProfile(pngGamma:chromaticities:)`, and converted like embedded ones.
@Suite("Colour spaces from code points, gAMA and cHRM")
struct DescribedColorSpaceTests {
    static let gradient = ImageFixtures.gradient(width: 64, height: 48)

    /// The ΔE2000 between converting the gradient through `a` (rounded to 8 bits, which alone
    /// costs a mean of about 0.15) and through `b` (lcms2, double precision).
    static func distance(_ a: ColorProfile, _ b: ColorProfile) throws -> ColorReference.DeltaE {
        let bytes = gradient.bytes
        let viaA = try #require(ColorReference.sRGB(rgba: bytes, profile: a))
        let viaB = try #require(ColorReference.sRGB(rgba: bytes, profile: b))
        let rgba = (0..<viaA.count / 3).flatMap { pixel in (0..<3).map { UInt8((viaA[pixel * 3 + $0] * 255).rounded()) } + [255] }
        return ColorReference.difference(rgba, reference: viaB)
    }

    static func close(_ d: ColorReference.DeltaE) -> Bool { d.mean <= 0.2 && d.max <= 1 }

    @Test("code points make the profiles lcms2 makes from the same primaries and curves")
    func codePointProfiles() throws {
        let p3 = try #require(ColorProfile(codePoints: .init(primaries: 12, transfer: 13)))
        #expect(try Self.close(Self.distance(p3, TestColorProfiles.displayP3)))
        let linear = try #require(ColorProfile(codePoints: .init(primaries: 1, transfer: 8)))
        #expect(try Self.close(Self.distance(linear, TestColorProfiles.linearSRGB)))
        let bt2020 = try #require(ColorProfile(codePoints: .init(primaries: 9, transfer: 13)))
        let lcms2020 = TestColorProfiles.rgbProfile(
            red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046),
            curve: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045], curveType: 4)
        #expect(try Self.close(Self.distance(bt2020, lcms2020)))
        #expect(p3.colorSpace == .rgb && p3.name == "H.273 12/13")
        // sRGB (and the BT.709 curves, shown as sRGB), unspecified, PQ, HLG and reserved values: no profile.
        for (primaries, transfer) in [(1, 13), (1, 1), (2, 2), (1, 6), (9, 16), (9, 18), (12, 16), (3, 13), (200, 13)] {
            #expect(ColorProfile(codePoints: .init(primaries: primaries, transfer: transfer)) == nil, "\(primaries)/\(transfer)")
        }
    }

    static func png(_ chunks: [[UInt8]]) -> Data {
        var all = [TestPNG.ihdr(width: 64, height: 48, colorType: 2)] + chunks
        let rows = TestPNG.scanlines(width: 64, height: 48, bitDepth: 8, channels: 3) { x, y in
            let i = (y * 64 + x) * 4
            return [Int(gradient.bytes[i]), Int(gradient.bytes[i + 1]), Int(gradient.bytes[i + 2])]
        }
        all.append(TestPNG.chunk("IDAT", TestPNG.zlib(rows)))
        all.append(TestPNG.chunk("IEND", []))
        return TestPNG.file(all)
    }

    static func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    /// The decoded sRGB pixels' ΔE2000 from lcms2's conversion of the gradient through `profile`.
    static func converted(_ data: Data, against profile: ColorProfile?) throws -> ColorReference.DeltaE {
        let decoded = try ColorFixtures.decode(data, policy: .sRGB)
        #expect(decoded.colorProfile == nil)
        let reference: [Double]
        if let profile {
            reference = try #require(ColorReference.sRGB(rgba: gradient.bytes, profile: profile))
        } else {
            reference = (0..<gradient.bytes.count / 4).flatMap { pixel in (0..<3).map { Double(gradient.bytes[pixel * 4 + $0]) / 255 } }
        }
        return ColorReference.difference(decoded.pixels.bytes, reference: reference)
    }

    @Test("PNG: cICP wins over iCCP, iCCP over sRGB, sRGB over gAMA/cHRM; a gamma of 1/2.2 alone is sRGB")
    func pngPrecedence() throws {
        let cicpP3 = TestPNG.chunk("cICP", [12, 13, 0, 1])
        let iccpAdobe = TestPNG.chunk("iCCP", Array("x\0\0".utf8) + TestPNG.zlib([UInt8](TestColorProfiles.adobeRGB.data)))
        let linearGamma = TestPNG.chunk("gAMA", Self.be32(100_000))
        let srgb = TestPNG.chunk("sRGB", [0])
        func within(_ d: ColorReference.DeltaE) -> Bool { d.mean <= 1 && d.p99 <= 3 }

        let p3 = try Self.converted(Self.png([cicpP3, iccpAdobe]), against: TestColorProfiles.displayP3)
        #expect(within(p3), "cICP P3: \(p3)")
        let adobe = try Self.converted(Self.png([iccpAdobe, srgb, linearGamma]), against: TestColorProfiles.adobeRGB)
        #expect(within(adobe), "iCCP Adobe RGB: \(adobe)")
        let untouched = try ColorFixtures.decode(Self.png([srgb, linearGamma]), policy: .sRGB)
        #expect(untouched.pixels.bytes == Self.gradient.bytes, "the sRGB chunk wins over gAMA")
        let linear = try Self.converted(Self.png([linearGamma]), against: TestColorProfiles.linearSRGB)
        #expect(within(linear), "gAMA 1.0: \(linear)")
        let usual = try ColorFixtures.decode(Self.png([TestPNG.chunk("gAMA", Self.be32(45455))]), policy: .sRGB)
        #expect(usual.pixels.bytes == Self.gradient.bytes, "gAMA 1/2.2 alone is sRGB")
        // cHRM with P3's primaries and the sRGB-like gamma.
        let chrm = TestPNG.chunk("cHRM", [31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000].flatMap { Self.be32($0) })
        let chrmP3 = try Self.converted(Self.png([chrm]), against: TestColorProfiles.displayP3)
        #expect(within(chrmP3), "cHRM P3: \(chrmP3)")
        #expect(try PNGCoder().readHeader(Self.png([cicpP3])).colorProfile?.name == "H.273 12/13")
        // PQ is shown as stored.
        let pq = try ColorFixtures.decode(Self.png([TestPNG.chunk("cICP", [9, 16, 0, 1])]), policy: .sRGB)
        #expect(pq.pixels.bytes == Self.gradient.bytes)
    }

    @Test("hostile gAMA/cHRM values give no profile or one lcms2 uses, never a crash")
    func hostileChunks() throws {
        let degenerate: [UInt32] = [31270, 32900, 30000, 60000, 30000, 60000, 30000, 60000]
        #expect(ColorProfile(pngGamma: 100_000, chromaticities: degenerate) == nil)
        #expect(ColorProfile(pngGamma: 0, chromaticities: nil) == nil)
        let decoded = try ColorFixtures.decode(
            Self.png([TestPNG.chunk("cHRM", degenerate.flatMap { Self.be32($0) }), TestPNG.chunk("gAMA", Self.be32(100_000))]),
            policy: .sRGB)
        #expect(decoded.pixelSize == Self.gradient.size)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let values = (0..<8).map { _ in UInt32.random(in: 0...100_000, using: &generator) }
            let gamma = UInt32.random(in: 0...1_100_000, using: &generator)
            guard let profile = ColorProfile(pngGamma: gamma, chromaticities: values) else { continue }
            #expect(throws: Never.self, "gAMA \(gamma), cHRM \(values)") { _ = try LCMSColorConverter().isSRGB(profile) }
        }
    }

    /// `data` with the code points of its first `colr` box of type `nclx` set to `primaries`/`transfer`.
    static func patchingNCLX(_ data: Data, primaries: UInt16, transfer: UInt16) throws -> Data {
        var bytes = [UInt8](data)
        let marker = Array("colrnclx".utf8)
        let at = try #require(
            (0..<bytes.count - marker.count).first { bytes[$0..<$0 + marker.count].elementsEqual(marker) }, "no nclx colr box")
        bytes.replaceSubrange(at + 8..<at + 12, with: [UInt8(primaries >> 8), UInt8(primaries & 0xFF), UInt8(transfer >> 8), UInt8(transfer & 0xFF)])
        return Data(bytes)
    }

    @Test("AVIF: nclx code points are converted like a profile, and kept as one")
    func avifNCLX() throws {
        var lossless = ImageEncodingOptions()
        lossless.lossless = true
        let plain = try ImageCodersManager.standard().encode(Image(pixels: Self.gradient, format: .avif), as: .avif, options: lossless)
        let p3 = try Self.patchingNCLX(plain, primaries: 12, transfer: 13)
        let stored = try ColorFixtures.decode(p3, policy: .ignore)
        let converted = try ColorFixtures.decode(p3, policy: .sRGB)
        let reference = try #require(ColorReference.sRGB(rgba: stored.pixels.bytes, profile: TestColorProfiles.displayP3))
        let difference = ColorReference.difference(converted.pixels.bytes, reference: reference)
        #expect(difference.mean <= 1 && difference.p99 <= 3, "\(difference)")
        #expect(try ColorFixtures.decode(p3, policy: .keep).colorProfile?.name == "H.273 12/13")
        #expect(try ColorFixtures.decode(plain, policy: .sRGB).pixels == stored.pixels, "sRGB code points change nothing")
    }
}
