public import Foundation
import CAVIF
public import WebImage

/// Decodes and encodes AVIF (AV1 in HEIF) with libavif: still images, alpha and image sequences.
///
/// Decoding converts YUV (8, 10 or 12 bits) to 8-bit straight RGBA with libavif's converter,
/// straight into the result's buffer; a 10- or 12-bit still image with a non-sRGB profile is
/// converted to 16-bit RGB and from there to sRGB by ``colorConverter``. libavif has no
/// reduced-size decode, so a thumbnail is the full decode resampled with ``Resampler`` (one full-size frame at a time). The container's
/// `irot`/`imir` transforms become ``Image/orientation`` (carried, not applied, as for JPEG).
/// Image sequences (`avis`) are animations decoded frame by frame on demand; their loop count
/// reads 0 (forever), since libavif 0.11 does not expose it. Frame durations are exact up to 512
/// frames; longer sequences report their average (libavif's per-frame timing is quadratic).
///
/// Encoding uses libavif's AV1 encoder (libaom on Debian 12): ``ImageEncodingOptions/quality``
/// maps to the quantizer as libavif 1.0 does (1 → 0, 0 → 63), ``ImageEncodingOptions/speed``
/// (default 6) is libavif's speed, ``ImageEncodingOptions/lossless`` writes 4:4:4 with the
/// identity matrix at quantizer 0 (bit-exact), and animations become image sequences.
///
/// ```swift
/// let coder = AVIFCoder()
/// let image = try coder.decode(data)
/// let avif = try coder.encode(image, as: .avif, options: ImageEncodingOptions(quality: 0.6, speed: 8))
/// ```
public struct AVIFCoder: ImageCoding {
    /// Converts 10- and 12-bit still images with a non-sRGB profile to sRGB from their own samples
    /// under ``ColorPolicy/sRGB`` (one rounding to 8 bits); without it they are reduced to 8 bits
    /// and converted afterwards by the manager.
    public let colorConverter: (any ColorConverting)?

    /// Creates the coder. Give it the manager's `colorConverter` (as `ImageCodersManager.standard()`
    /// does) to convert 10- and 12-bit sources at their own precision.
    public init(colorConverter: (any ColorConverting)? = nil) {
        self.colorConverter = colorConverter
    }

    /// `"avif"`.
    public var name: String { "avif" }

    /// Whether the bytes are an ISO-BMFF file whose `ftyp` brands say AVIF (`avif`, `avis`).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(in: data) == .avif
    }

    /// Whether `format` is ``ImageFormat/avif``.
    public func canEncode(_ format: ImageFormat) -> Bool {
        format == .avif
    }

    /// Decodes a still AVIF or an image sequence.
    ///
    /// Throws ``WebImageError/Code/tooLarge`` when the container's size exceeds
    /// ``ImageDecodingOptions/maxPixelCount`` (read before any AV1 data is decoded; the AV1 decoder
    /// is also told the limit) or a sequence exceeds the animation budget, and
    /// ``WebImageError/Code/badImageData`` for corrupt or truncated data.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        try data.withUnsafeBytes { bytes in
            let session = try AVIFDecoderSession(bytes: bytes, readsDurations: !options.firstFrameOnly)
            let info = session.info
            try options.checkPixelLimit(info.size)
            try session.limitPixels(to: options.maxPixelCount)
            if info.frameCount > 1 && !options.firstFrameOnly {
                try options.checkAnimationBudget(frameCount: info.frameCount, canvasSize: info.size)
                let target = options.targetSize(
                    for: info.size, frameCount: info.frameCount, orientation: info.orientation)
                let source = AVIFAnimatedSource(
                    bytes: OwnedBytes(bytes), info: info, outputSize: target, alphaMode: options.alphaMode,
                    maxPixelCount: options.maxPixelCount)
                let first = try source.frame(at: 0)
                return Image(
                    pixels: first.pixels, scale: options.scaleFactor, orientation: info.orientation, format: .avif,
                    animation: source, hasAlpha: info.hasAlpha, originalPixelSize: info.size,
                    colorProfile: options.colorPolicy == .ignore ? nil : info.colorProfile)
            }
            let profile = options.colorPolicy == .ignore ? nil : info.colorProfile
            // A 10- or 12-bit image with a non-sRGB profile is converted from its own samples.
            var wide: PixelBuffer?
            if let transform = options.wideTransform(for: profile, bitDepth: info.bitDepth, converter: colorConverter) {
                wide = try session.wideRGBA(
                    at: 0, maxPixelCount: options.maxPixelCount, transform: transform,
                    allowsWideBuffer: { options.allowsWideBuffer(pixelCount: $0) })
            }
            let decoded = try wide ?? session.rgba(at: 0, maxPixelCount: options.maxPixelCount)
            let target = options.targetSize(for: decoded.size, orientation: info.orientation)
            let sized = target == decoded.size ? decoded : Resampler.resample(decoded, to: target)
            return Image(
                pixels: sized.converted(to: options.alphaMode), scale: options.scaleFactor,
                orientation: info.orientation, format: .avif, hasAlpha: info.hasAlpha, originalPixelSize: info.size,
                colorProfile: wide == nil ? profile : nil)
        }
    }

    /// Encodes `image` as AVIF (an image sequence when it has more than one frame and
    /// ``ImageEncodingOptions/firstFrameOnly`` is off).
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard canEncode(format) else {
            throw WebImageError(.unsupportedFormat, "the AVIF coder cannot encode \(format)")
        }
        let profile = image.colorProfile?.colorSpace == .rgb ? image.colorProfile : nil
        let metadata = ImageMetadata.toWrite(for: image, options: options)
        if let animation = image.animation, animation.frameCount > 1, !options.firstFrameOnly {
            return try AVIFEncoder.encode(animation, hasAlpha: image.hasAlpha, profile: profile, metadata: metadata, options: options)
        }
        return try AVIFEncoder.encode(image.pixels, profile: profile, metadata: metadata, options: options)
    }

    /// AVIF carries an RGB colour profile (`colr` of type `prof`).
    public func writesColorProfile(_ profile: ColorProfile, in format: ImageFormat) -> Bool {
        canEncode(format) && profile.colorSpace == .rgb
    }
}

extension AVIFCoder: ImageHeaderReading {
    /// Reads an AVIF's container without decoding AV1 data: size, alpha, frames and their
    /// durations, and the `irot`/`imir` orientation.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        guard canDecode(data) else { throw WebImageError.badData("not AVIF data (no avif/avis ftyp brand)") }
        return try data.withUnsafeBytes { bytes in
            let info = try AVIFDecoderSession(bytes: bytes).info
            let animated = info.frameCount > 1
            return ImageHeader(
                format: .avif, pixelSize: info.size, frameCount: info.frameCount, loopCount: animated ? 0 : nil,
                frameDurations: animated ? info.durations.map(FrameDurationRule.played) : nil,
                storedFrameDurations: animated ? info.durations : nil, hasAlpha: info.hasAlpha,
                orientation: info.orientation, colorProfile: info.colorProfile)
        }
    }
}
