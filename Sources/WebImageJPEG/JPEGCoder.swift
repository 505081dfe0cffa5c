public import Foundation
public import WebImage
import CJPEGShim

/// Decodes and encodes JPEG through libjpeg-turbo.
///
/// Decoding reads baseline, progressive, greyscale, RGB, CMYK and YCCK (Adobe) JPEGs into 8-bit RGBA
/// with libjpeg's accurate integer IDCT and fancy upsampling, so the pixels match `djpeg` and other
/// libjpeg-turbo based decoders bit for bit. CMYK and YCCK go through their embedded CMYK profile, or
/// the standard one, with the coder's ``colorConverter`` (the naive formula of Pillow and most
/// decoders without one, or under ``ColorPolicy/ignore``). Thumbnails and scale-down use libjpeg's DCT-domain scaling (N/8) so a
/// large photo is never decoded at full size, then resample to the exact target size.
///
/// EXIF orientation (APP1; else XMP's `tiff:Orientation`) is exposed as ``Image/orientation`` and
/// not applied to the pixels. EXIF, XMP and IPTC are read (``readMetadata(_:)``) and written
/// (APP1, APP1, APP13) as ``ImageEncodingOptions/metadataPolicy`` says.
///
/// Truncated data (the data ends before the image does) and corruption that libjpeg cannot recover
/// from throw ``WebImageError`` (`badImageData`); corruption inside the entropy-coded data that
/// libjpeg recovers from is tolerated, as in other libjpeg-based decoders. Lossless (SOF3) and
/// 12-bit JPEGs are not supported by the linked libjpeg and throw `decodingFailed`.
///
/// Encoding writes a baseline YCbCr JPEG with 4:2:0 chroma subsampling and optimised Huffman
/// tables, at ``ImageEncodingOptions/qualityPercent`` (progressive with
/// ``ImageEncodingOptions/progressive``: libjpeg's standard scan script); transparent pixels are flattened over
/// ``ImageEncodingOptions/backgroundColor``; animated images encode their first frame.
///
/// ```swift
/// let coder = JPEGCoder()
/// var options = ImageDecodingOptions()
/// options.thumbnailPixelSize = PixelSize(width: 256, height: 256)
/// let thumbnail = try coder.decode(data, options: options)
/// let encoded = try coder.encode(thumbnail, as: .jpeg, options: ImageEncodingOptions(quality: 0.8))
/// ```
public struct JPEGCoder: ImageCoding, ImageProgressiveDecoding {
    /// Converts CMYK and YCCK JPEGs to sRGB through their CMYK profile (or the converter's
    /// standard one); without it they are converted by formula.
    public let colorConverter: (any ColorConverting)?

    /// Creates the coder. Give it the manager's `colorConverter` (as
    /// `ImageCodersManager.standard()` does) for colour-managed CMYK; without one, and under
    /// ``ColorPolicy/ignore``, CMYK is converted by the naive formula.
    public init(colorConverter: (any ColorConverting)? = nil) {
        self.colorConverter = colorConverter
    }

    /// `"jpeg"`.
    public var name: String { "jpeg" }

    /// Whether the libjpeg-turbo WebImage was built against decodes lossless (SOF3) JPEG, which
    /// arrived in libjpeg-turbo 3.0 (Debian 12 ships 2.1.5). Without it such files give
    /// ``WebImageError/Code/decodingFailed``.
    public static var supportsLosslessJPEG: Bool { webimage_jpeg_supports_lossless() != 0 }

    /// Whether the bytes start with a JPEG SOI marker followed by another marker (`FF D8 FF`).
    public func canDecode(_ data: Data) -> Bool {
        data.count >= 3 && data.starts(with: [0xFF, 0xD8, 0xFF])
    }

    /// Whether `format` is ``ImageFormat/jpeg``.
    public func canEncode(_ format: ImageFormat) -> Bool {
        format == .jpeg
    }

    /// Decodes a JPEG, honouring the thumbnail size, scale-down limit, pixel limit, scale factor and
    /// alpha mode of `options` (JPEG pixels are always opaque).
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        try JPEGDecoder.decode(data, options: options, colorConverter: colorConverter)
    }

    /// A decoder for a JPEG that is still arriving: one image per completed scan for progressive
    /// files, the rows so far (mid-grey below) for baseline ones; thumbnails through DCT scaling.
    public func makeIncrementalDecoder(options: ImageDecodingOptions) -> any ImageIncrementalDecoding {
        JPEGIncrementalDecoder(options: options, colorConverter: colorConverter)
    }

    /// Encodes the image (its first frame, if animated) as a JPEG.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard canEncode(format) else {
            throw WebImageError(.unsupportedFormat, "the JPEG coder cannot encode \(format)")
        }
        let jpeg = try JPEGEncoder.encode(image.pixels, options: options)
        let profiled = image.colorProfile.map { JPEGEncoder.embedding($0, in: jpeg) } ?? jpeg
        return ImageMetadata.toWrite(for: image, options: options).map { JPEGMetadata.embedding($0, in: profiled) } ?? profiled
    }

    /// JPEG carries an RGB colour profile (APP2).
    public func writesColorProfile(_ profile: ColorProfile, in format: ImageFormat) -> Bool {
        canEncode(format) && profile.colorSpace == .rgb
    }
}
