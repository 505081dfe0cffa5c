import CPNGShim
import WebImage

/// The IHDR fields and optional PLTE/tRNS of a PNG to write, and how the input rows are laid out.
struct PNGWriteFormat: Sendable {
    /// PNG colour types.
    enum ColorType: Int32, Sendable {
        case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6
    }

    var colorType: ColorType
    var bitDepth: Int32 = 8
    var interlaced = false
    var compressionLevel = 6
    /// Input rows carry a fourth byte per pixel that is dropped (RGBA rows written as RGB).
    var stripFiller = false
    /// PLTE entries as RGB triples.
    var palette: [UInt8] = []
    /// tRNS alpha per palette entry.
    var paletteAlpha: [UInt8] = []
    /// tRNS colour key (grey uses `gray`; RGB uses red, green, blue).
    var transparentKey: (gray: UInt16, red: UInt16, green: UInt16, blue: UInt16)?
}

/// Writes PNG streams with libpng into memory.
enum LibPNGWriter {
    /// Encodes `height` rows of `stride` bytes each, in libpng's sample layout (16-bit samples
    /// big-endian, sub-byte samples packed from the high bit).
    static func write(rows: [UInt8], stride: Int, width: Int, height: Int, format: PNGWriteFormat) throws -> [UInt8] {
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF,
            stride > 0, rows.count / stride >= height
        else {
            throw WebImageError(.encodingFailed, "cannot write a \(width)×\(height) PNG from \(rows.count) bytes")
        }
        var output = webimage_png_output()
        defer { webimage_png_output_free(&output) }
        let status = rows.withUnsafeBufferPointer { rowBytes in
            format.palette.withUnsafeBufferPointer { palette in
                format.paletteAlpha.withUnsafeBufferPointer { alpha in
                    var params = webimage_png_write_params()
                    params.width = UInt32(width)
                    params.height = UInt32(height)
                    params.bit_depth = format.bitDepth
                    params.color_type = format.colorType.rawValue
                    params.interlaced = format.interlaced ? 1 : 0
                    params.compression_level = Int32(min(9, max(0, format.compressionLevel)))
                    params.strip_filler = format.stripFiller ? 1 : 0
                    params.palette = palette.isEmpty ? nil : palette.baseAddress
                    params.palette_count = Int32(palette.count / 3)
                    params.trans_alpha = alpha.isEmpty ? nil : alpha.baseAddress
                    params.trans_count = Int32(alpha.count)
                    if let key = format.transparentKey {
                        params.has_trans_color = 1
                        params.trans_gray = key.gray
                        params.trans_red = key.red
                        params.trans_green = key.green
                        params.trans_blue = key.blue
                    }
                    return webimage_png_write(&params, rowBytes.baseAddress, stride, &output)
                }
            }
        }
        guard status == 0, let data = output.data else {
            let message = withUnsafeBytes(of: output.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw WebImageError(.encodingFailed, "libpng could not write the PNG: \(message)")
        }
        return Array(UnsafeBufferPointer(start: data, count: output.size))
    }
}
