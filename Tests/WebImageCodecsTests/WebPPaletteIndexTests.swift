import Foundation
import Testing
import WebImageCodecs

/// A lossless WebP whose pixels use a colour index beyond the colour-indexing transform's
/// palette. The WebP lossless spec (RFC 9649, 4.4) says such pixels are 0x00000000, transparent
/// black, and libwebp (`ExpandColorMap` fills the unused entries with 0) and its `dwebp` tool
/// decode them so. We decode with libwebp's `WebPDecode`, so we match it; these tests pin that.
///
/// (`dwebp -ppm`, which drops alpha, shows the same pixels as opaque black: that output is not
/// what libwebp decodes.)
@Suite("WebP lossless: colour indices beyond the palette")
struct WebPPaletteIndexTests {
    let coders = ImageCodersManager.standard()

    /// Hand-built VP8L, 8×1: a colour-indexing transform with a one-entry palette (opaque red),
    /// so indices are packed 8 per byte (1 bit each); every prefix code is a one-symbol "simple"
    /// code, and the packed green value 0xAA gives the indices 0, 1, 0, 1, … (index 1 is
    /// beyond the palette).
    static let packedIndices = bytes(
        "524946461c000000574542505650384c0f0000002f070000100710fd8ffe07aa1a110100")

    /// Hand-built VP8L, 4×1: a 17-entry palette (no packing; entry 0 = (16, 32, 48) opaque, each
    /// next entry adds (1, 1, 1, 0)), and the indices 5, 200, 5, 200 (200 is beyond the palette).
    static let unpackedIndices = bytes(
        "524946462c000000574542505650384c1f0000002f0300001087f0009007403c00e600fff1000000000000000078017244840200")

    @Test("Indices beyond a packed palette decode as transparent black, as libwebp's dwebp gives")
    func packed() throws {
        let image = try coders.decode(Self.packedIndices)
        #expect(image.format == .webp)
        #expect(image.pixelSize == PixelSize(width: 8, height: 1))
        for x in 0..<8 {
            let expected = x % 2 == 0 ? RGBA8(r: 255, g: 0, b: 0, a: 255) : RGBA8.clear
            #expect(image.pixels[x, 0] == expected, "pixel \(x)")
        }
        try expectSameAsDwebp(Self.packedIndices, image.pixels)
    }

    @Test("Indices beyond an unpacked palette (17+ colours) decode as transparent black")
    func unpacked() throws {
        let image = try coders.decode(Self.unpackedIndices)
        #expect(image.pixelSize == PixelSize(width: 4, height: 1))
        let inPalette = RGBA8(r: 21, g: 37, b: 53, a: 255)
        #expect((0..<4).map { image.pixels[$0, 0] } == [inPalette, .clear, inPalette, .clear])
        try expectSameAsDwebp(Self.unpackedIndices, image.pixels)
    }

    /// libwebp's own command-line decoder, when installed (scripts/test.sh installs it).
    private func expectSameAsDwebp(_ data: Data, _ ours: PixelBuffer) throws {
        let theirs = try ExternalDecoder.decode(data, format: .webp)
        #expect(theirs != nil || ProcessInfo.processInfo.environment["CI"] == nil, "dwebp is not installed")
        if let theirs { #expect(theirs == ours) }
    }

    private static func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return data
    }
}
