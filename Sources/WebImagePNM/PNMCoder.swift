public import Foundation
public import WebImage

/// Reads and writes Netpbm's binary maps: `P6` pixmaps (`.ppm`), `P5` greymaps (`.pgm`) and `P7`
/// arbitrary maps (`.pam`), 8 bits a sample and uncompressed: what `djpeg` writes, so that one
/// process per file can decode and nothing else.
///
/// Decoding reads the header, checks its size against ``ImageDecodingOptions/maxPixelCount`` and
/// that the raster is all there, and only then allocates the pixels. Samples are scaled from the
/// header's maximum value to 255; PAM depths 1–4 are grey, grey and alpha, RGB, RGB and alpha
/// (straight alpha). 16-bit maps and the ASCII forms (`P1`–`P3`) are not read. A file holding
/// several maps gives the first.
///
/// Encoding writes ``ImageFormat/ppm`` as `P6` and ``ImageFormat/pgm`` as `P5` (BT.601 luma), both
/// flattened over ``ImageEncodingOptions/backgroundColor`` when the image has transparent pixels,
/// and ``ImageFormat/pam`` as `P7` (`RGB_ALPHA`, or `RGB` when every pixel is opaque).
/// ``ImageFormat/pnm`` chooses: PAM for transparent pixels, else PGM when every pixel is grey,
/// else PPM. An animation writes its first frame. No colour profile or metadata is written.
///
/// ```swift
/// let ppm = try PNMCoder().encode(image, as: .ppm, options: ImageEncodingOptions())
/// let back = try PNMCoder().decode(ppm)   // the same pixels, opaque
/// ```
public struct PNMCoder: ImageCoding, ImageHeaderReading {
    /// Creates the coder.
    public init() {}

    /// `"pnm"`.
    public var name: String { "pnm" }

    /// Whether the bytes start with `P5`, `P6` or `P7` and whitespace.
    public func canDecode(_ data: Data) -> Bool {
        data.withUnsafeBytes { MagicNumber.format(of: $0) } != nil
    }

    /// Whether `format` is ``ImageFormat/ppm``, ``ImageFormat/pgm``, ``ImageFormat/pam`` or
    /// ``ImageFormat/pnm``.
    public func canEncode(_ format: ImageFormat) -> Bool {
        [.ppm, .pgm, .pam, .pnm].contains(format)
    }

    /// Decodes the first map in `data`.
    ///
    /// Throws ``WebImageError/Code/tooLarge`` past ``ImageDecodingOptions/maxPixelCount`` and
    /// ``WebImageError/Code/badImageData`` for a corrupt header, a truncated raster or a sample
    /// above the maximum value, before any pixel memory is allocated (but the last).
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        let (header, decoded) = try data.withUnsafeBytes { bytes in
            let header = try PNMHeader.read(bytes)
            try options.checkPixelLimit(header.size)
            guard bytes.count - header.rasterOffset >= header.rasterByteCount else {
                throw WebImageError.badData(
                    "truncated Netpbm raster: \(max(0, bytes.count - header.rasterOffset)) of \(header.rasterByteCount) bytes")
            }
            let raster = UnsafeRawBufferPointer(rebasing: bytes[header.rasterOffset..<(header.rasterOffset + header.rasterByteCount)])
            return (header, try PNMRaster.decode(raster, header: header, maxPixelCount: options.maxPixelCount))
        }
        let target = options.targetSize(for: header.size)
        let pixels = target == decoded.size ? decoded : Resampler.resample(decoded, to: target)
        return Image(
            pixels: pixels.converted(to: options.alphaMode), scale: options.scaleFactor, format: header.format,
            hasAlpha: header.hasAlpha, originalPixelSize: header.size)
    }

    /// The map's format, size and whether it has an alpha channel, from its header alone.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        let header = try data.withUnsafeBytes { try PNMHeader.read($0) }
        return ImageHeader(format: header.format, pixelSize: header.size, hasAlpha: header.hasAlpha, orientation: .up)
    }

    /// Encodes the image (its first frame) as `format`.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard canEncode(format) else { throw WebImageError(.unsupportedFormat, "the Netpbm coder cannot encode \(format)") }
        var pixels = image.pixels.unpremultiplied()
        let opaque = pixels.isOpaque
        let written = format != .pnm ? format : (!opaque ? .pam : PNMRaster.isGrey(pixels) ? .pgm : .ppm)
        let channels: Int
        let header: String
        switch written {
        case .pam:
            channels = opaque ? 3 : 4
            header = "P7\nWIDTH \(pixels.width)\nHEIGHT \(pixels.height)\nDEPTH \(channels)\nMAXVAL 255\n"
                + "TUPLTYPE \(opaque ? "RGB" : "RGB_ALPHA")\nENDHDR\n"
        default:
            if !opaque { pixels = pixels.flattened(over: options.backgroundColor) }
            channels = written == .pgm ? 1 : 3
            header = "\(written == .pgm ? "P5" : "P6")\n\(pixels.width) \(pixels.height)\n255\n"
        }
        let headerBytes = Array(header.utf8)
        var data = Data(count: headerBytes.count + pixels.size.pixelCount * channels)
        data.withUnsafeMutableBytes { out in
            HugePages.advise(out)  // a fresh (calloc'd, untouched) block when large
            out.copyBytes(from: headerBytes)
            PNMRaster.encode(pixels, channels: channels, into: UnsafeMutableRawBufferPointer(rebasing: out[headerBytes.count...]))
        }
        return data
    }
}
