import Foundation
import WebImage
import WebImageTesting

/// High-bit-depth files made in the test: 16-bit PNG and TIFF written here byte by byte, and 10-bit
/// AVIF and HEIC and 16-bit JPEG XL made from the PNG by the Debian encoders the set-up script
/// installs (`avifenc`, `heif-enc`, `cjxl`), each carrying the PNG's ICC profile.
enum HighBitDepthFixtures {
    static let width = 64
    /// Over one band of ``ImageDecodingOptions/wideBandRowCount`` rows and several TIFF strips.
    static let height = 80

    /// A dark gradient, 16 bits a sample: where linear-light and wide-gamut profiles need more than
    /// 8 bits (one 8-bit level of linear light near black is several levels of sRGB).
    static func sample(_ x: Int, _ y: Int) -> [Int] {
        [x * 40 + y * 3, y * 30 + x, (x + y) * 17, 65535 - x * 700 - y * 50]
    }

    /// A 16-bit RGB (or RGBA with `alpha`) PNG carrying `profile` in `iCCP`.
    static func png(profile: ColorProfile, alpha: Bool = false, interlaced: Bool = false) -> Data {
        var chunks = [TestPNG.ihdr(width: width, height: height, bitDepth: 16, colorType: alpha ? 6 : 2, interlaced: interlaced)]
        chunks.append(TestPNG.chunk("iCCP", Array("test profile\0\0".utf8) + TestPNG.zlib([UInt8](profile.data))))
        let rows = TestPNG.scanlines(width: width, height: height, bitDepth: 16, channels: alpha ? 4 : 3, interlaced: interlaced) {
            x, y in Array(sample(x, y).prefix(alpha ? 4 : 3))
        }
        chunks.append(TestPNG.chunk("IDAT", TestPNG.zlib(rows)))
        chunks.append(TestPNG.chunk("IEND", []))
        return TestPNG.file(chunks)
    }

    /// A 16-bit greyscale PNG carrying the grey `profile`, grey from the red sample of ``sample(_:_:)``.
    static func greyPNG(profile: ColorProfile) -> Data {
        var chunks = [TestPNG.ihdr(width: width, height: height, bitDepth: 16, colorType: 0)]
        chunks.append(TestPNG.chunk("iCCP", Array("test profile\0\0".utf8) + TestPNG.zlib([UInt8](profile.data))))
        let rows = TestPNG.scanlines(width: width, height: height, bitDepth: 16, channels: 1) { x, y in [sample(x, y)[0]] }
        chunks.append(TestPNG.chunk("IDAT", TestPNG.zlib(rows)))
        chunks.append(TestPNG.chunk("IEND", []))
        return TestPNG.file(chunks)
    }

    /// The PNG's samples as the decoder hands them over: RGBA, alpha 65535 without `alpha`.
    static func samples(alpha: Bool = false) -> [UInt16] {
        (0..<height).flatMap { y in
            (0..<width).flatMap { x in sample(x, y).enumerated().map { UInt16($0.offset == 3 && !alpha ? 65535 : $0.element) } }
        }
    }

    /// An uncompressed little-endian 16-bit RGB TIFF in strips of `rowsPerStrip` rows, or in tiles
    /// of `tile` (edge tiles padded), carrying `profile` in the ICCProfile tag; with `grey`, one
    /// min-is-black sample a pixel (the red one of ``sample(_:_:)``).
    static func tiff(profile: ColorProfile, rowsPerStrip: Int = 8, tile: PixelSize? = nil, grey: Bool = false) -> Data {
        let channels = grey ? 1 : 3
        // Each block (strip or tile) as stored.
        var blocks: [[UInt8]] = []
        func block(x0: Int, y0: Int, columns: Int, rows: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            for y in y0..<y0 + rows {
                for x in x0..<x0 + columns {
                    let inside = x < width && y < height
                    let values = inside ? Array(sample(x, y).prefix(channels)) : Array(repeating: 0, count: channels)
                    for value in values { bytes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
                }
            }
            return bytes
        }
        if let tile {
            for y0 in stride(from: 0, to: height, by: tile.height) {
                for x0 in stride(from: 0, to: width, by: tile.width) {
                    blocks.append(block(x0: x0, y0: y0, columns: tile.width, rows: tile.height))
                }
            }
        } else {
            for y0 in stride(from: 0, to: height, by: rowsPerStrip) {
                blocks.append(block(x0: 0, y0: y0, columns: width, rows: min(rowsPerStrip, height - y0)))
            }
        }
        let icc = [UInt8](profile.data)
        let entryCount = tile == nil ? 11 : 12
        let bitsOffset = 8 + 2 + entryCount * 12 + 4
        let offsetsOffset = bitsOffset + 6
        let countsOffset = offsetsOffset + blocks.count * 4
        let iccOffset = countsOffset + blocks.count * 4
        let dataOffset = iccOffset + icc.count + icc.count % 2
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] {
            u16(tag) + u16(type) + u32(count) + (type == 3 && count == 1 ? u16(value) + [0, 0] : u32(value))
        }
        var file: [UInt8] = Array("II".utf8) + u16(42) + u32(8) + u16(entryCount)
        file += entry(256, 4, 1, width) + entry(257, 4, 1, height)
        file += (grey ? entry(258, 3, 1, 16) : entry(258, 3, 3, bitsOffset)) + entry(259, 3, 1, 1)
        file += entry(262, 3, 1, grey ? 1 : 2)
        if tile == nil { file += entry(273, 4, blocks.count, offsetsOffset) }
        file += entry(277, 3, 1, channels)
        if let tile {
            file += entry(284, 3, 1, 1) + entry(322, 4, 1, tile.width) + entry(323, 4, 1, tile.height)
            file += entry(324, 4, blocks.count, offsetsOffset) + entry(325, 4, blocks.count, countsOffset)
        } else {
            file += entry(278, 4, 1, rowsPerStrip) + entry(279, 4, blocks.count, countsOffset) + entry(284, 3, 1, 1)
        }
        file += entry(34675, 7, icc.count, iccOffset) + u32(0)
        file += u16(16) + u16(16) + u16(16)
        var offset = dataOffset
        for block in blocks {
            file += u32(offset)
            offset += block.count
        }
        for block in blocks { file += u32(block.count) }
        file += icc + (icc.count % 2 == 1 ? [0] : [])
        return Data(file + blocks.flatMap { $0 })
    }

    /// `input` (a PNG unless `inputSuffix` says otherwise) encoded by `tool` with `arguments`
    /// (`{in}` and `{out}` stand for the files).
    static func encoded(
        _ input: Data, tool name: String, _ arguments: [String], suffix: String, inputSuffix: String = "png"
    ) throws -> Data {
        guard let tool = ExternalDecoder.find(name) else {
            throw WebImageError(.unsupportedFormat, "\(name) is not installed (scripts/install-system-packages.sh installs it)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hibit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputFile = directory.appendingPathComponent("in.\(inputSuffix)")
        let output = directory.appendingPathComponent("out.\(suffix)")
        try input.write(to: inputFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments.map { $0 == "{in}" ? inputFile.path : $0 == "{out}" ? output.path : $0 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw WebImageError(.decodingFailed, "\(name) failed with status \(process.terminationStatus)")
        }
        return try Data(contentsOf: output)
    }
}
