public import Foundation

/// Something that turns encoded bytes into an ``Image``.
///
/// Decoders throw ``WebImageError``: `badImageData` for corrupt input, `tooLarge` when the header
/// exceeds ``ImageDecodingOptions/maxPixelCount`` (checked before the codec allocates anything in
/// proportion to the image) or an animation's frames exceed
/// ``ImageDecodingOptions/maxAnimationPixelCount`` (counted from the container before frames are
/// decoded), `decodingFailed` when the codec fails otherwise. They never crash or hang on hostile
/// input, and stop reading after the frames they need (``ImageDecodingOptions/firstFrameOnly``).
/// Coders that can also read a header without decoding adopt ``ImageHeaderReading``.
public protocol ImageDecoding: Sendable {
    /// Whether this decoder recognises the bytes (by magic bytes; cheap).
    func canDecode(_ data: Data) -> Bool
    /// Decodes the bytes.
    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image
}

/// Something that turns an ``Image`` into encoded bytes.
///
/// Encoders honour ``ImageEncodingOptions/quality``, ``ImageEncodingOptions/compressionLevel``,
/// ``ImageEncodingOptions/lossless``, ``ImageEncodingOptions/firstFrameOnly`` and
/// ``ImageEncodingOptions/backgroundColor``. The size limits (`maxPixelSize`, `maxFileSize`) and
/// EXIF orientation are applied around them by ``ImageCodersManager/Encoding``, which
/// ``ImageCodersManager`` uses.
public protocol ImageEncoding: Sendable {
    /// Whether this encoder writes `format`.
    func canEncode(_ format: ImageFormat) -> Bool
    /// Encodes `image` as `format`.
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data
    /// Whether `format` as this encoder writes it carries `profile` (an image's
    /// ``Image/colorProfile``); when it does not, ``ImageCodersManager`` converts the image to
    /// sRGB before encoding. False by default.
    func writesColorProfile(_ profile: ColorProfile, in format: ImageFormat) -> Bool
}

extension ImageEncoding {
    public func writesColorProfile(_ profile: ColorProfile, in format: ImageFormat) -> Bool { false }
}

/// A coder both decodes and encodes (SDWebImage's `SDImageCoder`).
public protocol ImageCoding: ImageDecoding, ImageEncoding {
    /// A short name for logs and for choosing a coder (`"jpeg"`, `"webp"`, …).
    var name: String { get }
}

extension ImageDecoding {
    /// Decodes with default options.
    public func decode(_ data: Data) throws -> Image { try decode(data, options: ImageDecodingOptions()) }
}
