public import Foundation
public import WebImage

/// Decodes and encodes PNG and APNG with libpng.
///
/// Decoding handles every colour type and bit depth (16-bit samples keep their high byte, unless
/// ``colorConverter`` converts them to sRGB at full precision), tRNS,
/// and Adam7, without gamma or colour management. APNG frames are decoded on demand and
/// composited per the APNG spec; ``Image/pixels`` is always the default (IDAT) image. When the
/// animation control data is broken (sequence numbers, missing `fdAT`, frames outside the canvas)
/// the result is the static default image, as the APNG spec asks.
///
/// Encoding writes RGB when the image is opaque and straight-alpha RGBA otherwise (Adam7-interlaced
/// with ``ImageEncodingOptions/progressive``), and an APNG (full-canvas frames, each frame's stored
/// duration as an exact fraction) for animated images or when asked for `.apng`.
///
/// Metadata: `eXIf` (EXIF) and the XMP `iTXt` are read (``readMetadata(_:)``; the orientation
/// from either) and written as ``ImageEncodingOptions/metadataPolicy`` says.
///
/// ```swift
/// let coder = PNGCoder()
/// let image = try coder.decode(data)
/// let png = try coder.encode(image, as: .png, options: ImageEncodingOptions(compressionLevel: 9))
/// ```
public struct PNGCoder: ImageCoding, ImageProgressiveDecoding {
    /// Converts 16-bit images with a non-sRGB RGB profile to sRGB from their 16-bit samples under
    /// ``ColorPolicy/sRGB`` (one rounding to 8 bits); without it they are reduced to 8 bits and
    /// converted afterwards by the manager.
    public let colorConverter: (any ColorConverting)?

    /// Creates a PNG/APNG coder. Give it the manager's `colorConverter` (as
    /// `ImageCodersManager.standard()` does) to convert 16-bit sources at their own precision.
    public init(colorConverter: (any ColorConverting)? = nil) {
        self.colorConverter = colorConverter
    }

    /// `"png"`.
    public var name: String { "png" }

    /// Whether the bytes start with the PNG signature (PNG and APNG).
    public func canDecode(_ data: Data) -> Bool {
        data.count >= pngSignature.count && data.prefix(pngSignature.count).elementsEqual(pngSignature)
    }

    /// Whether `format` is ``ImageFormat/png`` or ``ImageFormat/apng``.
    public func canEncode(_ format: ImageFormat) -> Bool { format == .png || format == .apng }

    /// Decodes a PNG or APNG.
    ///
    /// Throws `badImageData` for corrupt data, `tooLarge` when IHDR's size exceeds
    /// ``ImageDecodingOptions/maxPixelCount`` (checked before any pixel memory is allocated).
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        guard canDecode(data) else { throw WebImageError.badData("not PNG data (no PNG signature)") }
        return try PNGDecoder.decode(data, options: options, converter: colorConverter)
    }

    /// A decoder for a PNG that is still arriving (libpng's progressive reader): the rows so far, or
    /// one image per completed Adam7 pass for interlaced files; an APNG shows its default image.
    public func makeIncrementalDecoder(options: ImageDecodingOptions) -> any ImageIncrementalDecoding {
        PNGIncrementalDecoder(options: options, converter: colorConverter)
    }

    /// Encodes `image` as PNG, or as APNG when it is animated (and not ``ImageEncodingOptions/firstFrameOnly``)
    /// or when `format` is ``ImageFormat/apng``.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard canEncode(format) else { throw WebImageError(.unsupportedFormat, "PNGCoder cannot encode \(format)") }
        let bytes = try encodedBytes(image, as: format, options: options)
        let profiled = image.colorProfile.map { PNGColorProfile.embedding($0, in: bytes) } ?? bytes
        return Data(ImageMetadata.toWrite(for: image, options: options).map { PNGMetadata.embedding($0, in: profiled) } ?? profiled)
    }

    /// PNG and APNG carry an RGB colour profile (`iCCP`). An image whose pixels are all grey is
    /// written as greyscale, which an RGB profile cannot describe: it goes without, a difference
    /// only where the profile's grey axis differs from sRGB's.
    public func writesColorProfile(_ profile: ColorProfile, in format: ImageFormat) -> Bool {
        canEncode(format) && profile.colorSpace == .rgb
    }

    private func encodedBytes(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> [UInt8] {
        let level = min(9, max(0, options.compressionLevel ?? 6))
        if let animation = image.animation, !options.firstFrameOnly, animation.frameCount > 0 {
            return try APNGEncoder.encode(
                frameCount: animation.frameCount, loopCount: animation.loopCount, compressionLevel: level
            ) { index in
                let frame = try animation.frame(at: index)
                return APNGEncoder.Frame(pixels: frame.pixels, duration: animation.storedDuration(at: index))
            }
        }
        if format == .apng {
            return try APNGEncoder.encode(frameCount: 1, loopCount: 0, compressionLevel: level) { _ in
                APNGEncoder.Frame(pixels: image.pixels, duration: 0)
            }
        }
        let pixels = image.pixels
        return try PNGStillEncoder.encode(pixels, opaque: pixels.isOpaque, compressionLevel: level, interlaced: options.progressive)
    }
}
