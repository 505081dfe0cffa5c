import CPNGShim
import Foundation
import WebImage

extension PNGChunk {
    static let iCCP = type("iCCP")
    static let cICP = type("cICP")
    static let sRGB = type("sRGB")
    static let gAMA = type("gAMA")
    static let cHRM = type("cHRM")
}

/// The colour space of a PNG, from its chunks before the image data, in the precedence of the PNG
/// specification (third edition): `cICP`, then `iCCP`, then `sRGB`, then `gAMA` and `cHRM`.
enum PNGColorProfile {
    /// The profile the pixels are in, or nil for sRGB (or nothing usable: the pixels are taken as
    /// sRGB). `chunks` are `bytes`' (``PNGChunkReader/chunks()``), walked once for every reader.
    ///
    /// - `cICP` (H.273 code points, RGB only, full range): the equivalent ICC profile
    ///   (``WebImage/ColorProfile/init(codePoints:)``); PQ and HLG are shown as stored.
    /// - `iCCP`: see ``embedded(_:chunks:header:)``.
    /// - `sRGB`: sRGB.
    /// - `gAMA`/`cHRM`: the equivalent ICC profile, unless they describe sRGB for practical
    ///   purposes (``WebImage/ColorProfile/init(pngGamma:chromaticities:)``).
    static func read(_ bytes: UnsafeRawBufferPointer, chunks: [PNGChunk], header: PNGHeader) -> ColorProfile? {
        let before = chunks.prefix(while: { $0.type != PNGChunk.IDAT })
        func chunk(_ type: UInt32) -> PNGChunk? { before.first(where: { $0.type == type }) }
        func data(_ type: UInt32) -> [UInt8]? { chunk(type).map { Array(UnsafeRawBufferPointer(rebasing: bytes[$0.dataRange])) } }
        // Big-endian words of a chunk of exactly `count` of them, read by the module's chunk reader.
        func words(_ type: UInt32, count: Int) -> [UInt32]? {
            guard let chunk = chunk(type), chunk.length == count * 4 else { return nil }
            let reader = PNGChunkReader(bytes: bytes)
            return (0..<count).map { reader.uint32(at: chunk.dataRange.lowerBound + $0 * 4) }
        }
        if let cicp = data(PNGChunk.cICP), cicp.count == 4 {
            // Only RGB (matrix 0) in full range is described by primaries and a curve alone.
            guard cicp[2] == 0, cicp[3] == 1 else { return nil }
            return ColorProfile(codePoints: .init(primaries: Int(cicp[0]), transfer: Int(cicp[1])))
        }
        if before.contains(where: { $0.type == PNGChunk.iCCP }) { return embedded(bytes, chunks: chunks, header: header) }
        if chunk(PNGChunk.sRGB) != nil { return nil }
        let gamma = words(PNGChunk.gAMA, count: 1)?.first
        let chromaticities = words(PNGChunk.cHRM, count: 8)
        guard gamma != nil || chromaticities != nil else { return nil }
        return ColorProfile(pngGamma: gamma, chromaticities: chromaticities)
    }

    /// The profile of the first `iCCP` chunk before the image data, when it is well formed (a
    /// keyword of 1–79 bytes, compression method 0, a zlib stream of at most
    /// ``WebImage/ColorProfile/maxByteCount`` bytes) and describes `header`'s colour model (a grey
    /// profile on a grey PNG, an RGB one on any other); else nil, and the pixels are taken as sRGB.
    static func embedded(_ bytes: UnsafeRawBufferPointer, chunks: [PNGChunk], header: PNGHeader) -> ColorProfile? {
        guard let chunk = chunks.prefix(while: { $0.type != PNGChunk.IDAT }).first(where: { $0.type == PNGChunk.iCCP })
        else { return nil }
        let data = UnsafeRawBufferPointer(rebasing: bytes[chunk.dataRange])
        guard let nul = data.prefix(80).firstIndex(of: 0), nul >= 1, nul + 2 < data.count, data[nul + 1] == 0 else { return nil }
        let compressed = UnsafeRawBufferPointer(rebasing: data[(nul + 2)...])
        guard let profile = inflate(compressed), let parsed = ColorProfile(iccData: profile) else { return nil }
        let gray = header.colorType & 2 == 0 && header.colorType != 3
        return parsed.colorSpace == (gray ? .gray : .rgb) ? parsed : nil
    }

    private static func inflate(_ compressed: UnsafeRawBufferPointer) -> Data? {
        guard let base = compressed.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        // Most profiles are a few KB; a large one is inflated again into a buffer of the limit.
        for capacity in [64 << 10, ColorProfile.maxByteCount] {
            var out = [UInt8](repeating: 0, count: capacity)
            let produced = out.withUnsafeMutableBufferPointer { webimage_png_inflate(base, compressed.count, $0.baseAddress!, capacity) }
            if produced >= 0 { return Data(out.prefix(produced)) }
            if produced == -1 { return nil }
        }
        return nil
    }
}

extension PNGColorProfile {
    /// `png` with an `iCCP` chunk holding `profile` right after IHDR, when the written colour
    /// type matches the profile (grey types take a grey profile, the others an RGB one); else
    /// `png` unchanged.
    static func embedding(_ profile: ColorProfile, in png: [UInt8]) -> [UInt8] {
        // Signature (8), IHDR length and type (8), IHDR data (13; colour type at 9), CRC (4).
        guard png.count >= 33 else { return png }
        let colorType = png[8 + 8 + 9]
        let gray = colorType & 2 == 0 && colorType != 3
        guard profile.colorSpace == (gray ? .gray : .rgb), let compressed = deflate([UInt8](profile.data)) else { return png }
        var writer = PNGChunkWriter(bytes: Array(png[..<33]))
        writer.append(type: PNGChunk.iCCP, data: Array("ICC Profile".utf8) + [0, 0] + compressed)
        return writer.bytes + png[33...]
    }

    private static func deflate(_ bytes: [UInt8]) -> [UInt8]? {
        let capacity = webimage_png_deflate_bound(bytes.count)
        var out = [UInt8](repeating: 0, count: capacity)
        let length = out.withUnsafeMutableBufferPointer { buffer in
            bytes.withUnsafeBufferPointer { webimage_png_deflate($0.baseAddress, bytes.count, buffer.baseAddress, capacity) }
        }
        return length >= 0 ? Array(out.prefix(length)) : nil
    }
}
