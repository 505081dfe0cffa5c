public import Foundation
import CJXL
public import WebImage

/// Decodes and encodes JPEG XL with libjxl: still images, alpha and animations.
///
/// Decoding uses libjxl's streaming decoder: the basic info (size, alpha, orientation,
/// animation) is read and checked against ``ImageDecodingOptions/maxPixelCount`` before any pixel
/// memory is allocated; an animation's frames are counted from their headers (no pixels) and
/// checked against ``ImageDecodingOptions/maxAnimationPixelCount`` before frame 0 is decoded, then
/// composited by libjxl and decoded on demand (see ``Image/animation``), with the file's
/// durations and loop count. The stored orientation is reported as ``Image/orientation``, never
/// applied. Lossy (XYB) files are decoded to sRGB; a lossless still image of more than 8 bits in
/// another space is decoded at 16 bits and converted by ``colorConverter``. Thumbnails are
/// decoded at full size and resampled (libjxl 0.7 has no scaled decode).
///
/// Encoding: lossless with ``ImageEncodingOptions/lossless`` (modular mode, bit-exact, alpha
/// kept); otherwise lossy (VarDCT) at a Butteraugli distance mapped from
/// ``ImageEncodingOptions/quality`` as `cjxl --quality` maps it (see ``distance(forQuality:)``):
/// quality 0.9 is distance 1.0, libjxl's "visually lossless" default. Effort is libjxl's default
/// (7). An animation becomes an animated JPEG XL (millisecond ticks) unless
/// ``ImageEncodingOptions/firstFrameOnly``.
///
/// ```swift
/// let coder = JXLCoder()
/// let image = try coder.decode(data)
/// let lossless = try coder.encode(image, as: .jpegXL, options: ImageEncodingOptions(lossless: true))
/// ```
public struct JXLCoder: ImageCoding {
    /// Converts still images of more than 8 bits whose pixels come out in a non-sRGB profile
    /// (lossless files) to sRGB from their 16-bit samples under ``ColorPolicy/sRGB`` (one rounding
    /// to 8 bits); without it they are reduced to 8 bits and converted afterwards by the manager.
    public let colorConverter: (any ColorConverting)?

    /// Creates the coder. Give it the manager's `colorConverter` (as `ImageCodersManager.standard()`
    /// does) to convert high-bit-depth sources at their own precision.
    public init(colorConverter: (any ColorConverting)? = nil) {
        self.colorConverter = colorConverter
    }

    /// `"jxl"`.
    public var name: String { "jxl" }

    /// Whether the bytes start with a JPEG XL codestream (`FF 0A`) or container signature.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(in: data) == .jpegXL
    }

    /// Whether `format` is ``ImageFormat/jpegXL``.
    public func canEncode(_ format: ImageFormat) -> Bool {
        format == .jpegXL
    }

    /// The Butteraugli distance a `quality` (0…1) encodes at: `cjxl`'s mapping of its 0–100
    /// `--quality`, q = quality × 100: 0.1 + (100 − q) × 0.09 for q ≥ 30, else
    /// 6.4 + 2.5^((30 − q) / 5) / 6.25; at most 15 (libjxl's limit).
    ///
    /// Quality 1 is distance 0.1 (near-lossless, still lossy: ask for
    /// ``ImageEncodingOptions/lossless`` for bit-exact), 0.9 is 1.0, 0.5 is 4.6, 0.3 is 6.4.
    public static func distance(forQuality quality: Double) -> Float {
        let q = min(100, max(0, (quality.isFinite ? quality : 0.9) * 100))
        let distance = q >= 30 ? 0.1 + (100 - q) * 0.09 : 6.4 + pow(2.5, (30 - q) / 5) / 6.25
        return Float(min(15, distance))
    }

    /// Decodes a still or animated JPEG XL.
    ///
    /// Throws ``WebImageError/Code/tooLarge`` when the image exceeds
    /// ``ImageDecodingOptions/maxPixelCount`` (or an animation its budget), before any pixel
    /// memory is allocated, and ``WebImageError/Code/badImageData`` for corrupt or truncated data.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        guard canDecode(data) else { throw WebImageError.badData("not JPEG XL data (no codestream or container signature)") }
        let bytes = data.withUnsafeBytes { OwnedBytes($0) }
        // The size first, from a decoder that decodes nothing else.
        let probe = try JXLStream(bytes: bytes, wantsPixels: false)
        let info = try probe.readInfo()
        let size = info.pixelSize
        try options.checkPixelLimit(size)
        let container = try JXLContainer.read(
            bytes, maxFrames: options.maxAnimationFrameCount(framePixelCount: size.pixelCount) + 1,
            firstFrameOnly: options.firstFrameOnly)
        try options.checkAnimationBudget(frameCount: container.durations.count, canvasSize: size)
        let animated = container.durations.count > 1 && !options.firstFrameOnly
        let target = options.targetSize(
            for: size, frameCount: animated ? container.durations.count : 1, orientation: info.imageOrientation)

        let stream = try JXLStream(bytes: bytes, wantsPixels: true)
        guard try stream.nextFrame() != nil else { throw WebImageError.badData("JPEG XL data has no frame") }
        let profile = options.colorPolicy == .ignore ? nil : stream.colorProfile
        // A still image of more than 8 bits in a non-sRGB space is converted from 16-bit samples;
        // an animation's frames are converted by the manager, through the profile.
        let wide =
            animated ? nil : options.wideTransform(for: profile, bitDepth: Int(info.bits_per_sample), converter: colorConverter)
        let first = try stream.decodeFrame(maxPixelCount: options.maxPixelCount, wideTransform: wide)
        let pixels = first.size == target ? first : Resampler.resample(first, to: target)
        let source =
            animated
            ? JXLAnimatedSource(
                bytes: bytes, durations: container.durations, loopCount: Int(info.animation.num_loops),
                outputSize: target, alphaMode: options.alphaMode, maxPixelCount: options.maxPixelCount,
                first: JXLFrameCursor(stream: stream, index: 0, maxPixelCount: options.maxPixelCount))
            : nil
        return Image(
            pixels: pixels.converted(to: options.alphaMode), scale: options.scaleFactor,
            orientation: info.imageOrientation, format: .jpegXL, animation: source, hasAlpha: info.hasAlphaChannel,
            originalPixelSize: size, colorProfile: wide == nil ? profile : nil)
    }

    /// Encodes `image` as JPEG XL (animated when it has more than one frame and
    /// ``ImageEncodingOptions/firstFrameOnly`` is off).
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard canEncode(format) else {
            throw WebImageError(.unsupportedFormat, "the JPEG XL coder cannot encode \(format)")
        }
        let profile = image.colorProfile?.colorSpace == .rgb ? image.colorProfile : nil
        let metadata = ImageMetadata.toWrite(for: image, options: options)
        if let animation = image.animation, animation.frameCount > 1, !options.firstFrameOnly {
            return try JXLEncoder.encode(animation, profile: profile, metadata: metadata, options: options)
        }
        return try JXLEncoder.encode(image.pixels, profile: profile, metadata: metadata, options: options)
    }

    /// JPEG XL carries an RGB colour profile (the pixels are written in it).
    public func writesColorProfile(_ profile: ColorProfile, in format: ImageFormat) -> Bool {
        canEncode(format) && profile.colorSpace == .rgb
    }
}
