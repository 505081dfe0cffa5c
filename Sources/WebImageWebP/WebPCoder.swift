public import Foundation
import CWebP
public import WebImage

/// Decodes and encodes WebP with libwebp: lossy, lossless, alpha and animations.
///
/// Still images are decoded by `WebPDecode` straight into the result's buffer, scaled by libwebp
/// while decoding when a thumbnail or scale-down limit asks for a smaller size. Animations are
/// composited by `WebPAnimDecoder` frame by frame on demand (see ``Image/animation``); their
/// `ANIM` background colour is ignored (frames start on a transparent canvas); frame durations
/// of 10 ms or less play as 100 ms (``FrameDurationRule``), the stored milliseconds stay
/// available (``AnimatedImageSource/storedDuration(at:)``). An `EXIF` (else XMP `tiff:Orientation`)
/// orientation is exposed as ``Image/orientation``, not applied; the `EXIF` and `XMP ` chunks are
/// read (``readMetadata(_:)``) and written as ``ImageEncodingOptions/metadataPolicy`` says.
///
/// Encoding writes lossy WebP at ``ImageEncodingOptions/quality``, or lossless WebP (keeping the
/// colour of transparent pixels) when ``ImageEncodingOptions/lossless`` is set, and animated
/// WebP for images with an animation unless ``ImageEncodingOptions/firstFrameOnly``.
///
/// ```swift
/// let coder = WebPCoder()
/// let image = try coder.decode(data)
/// let lossless = try coder.encode(image, as: .webp, options: .init(lossless: true))
/// ```
public struct WebPCoder: ImageCoding, ImageProgressiveDecoding {
    /// Creates the coder (it holds no state).
    public init() {}

    /// `"webp"`.
    public var name: String { "webp" }

    /// Whether the bytes start with a `RIFF....WEBP` header.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(in: data) == .webp
    }

    /// Whether `format` is ``ImageFormat/webp``.
    public func canEncode(_ format: ImageFormat) -> Bool {
        format == .webp
    }

    /// Decodes a still or animated WebP.
    ///
    /// Throws ``WebImageError/Code/tooLarge`` when the header's size (the canvas for animations)
    /// exceeds ``ImageDecodingOptions/maxPixelCount``, before any pixel memory is allocated, and
    /// ``WebImageError/Code/badImageData`` for corrupt or truncated data.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        try data.withUnsafeBytes { bytes in
            let (header, status) = WebPHeader.read(bytes)
            // A header that names a size is checked against the limit even when the rest is
            // missing: "too large" is the more useful answer for a 16383×16383 stub.
            if let header { try options.checkPixelLimit(header.size) }
            if let error = WebPStatus.error(for: status, while: "reading the header") { throw error }
            guard let header else { throw WebImageError.badData("WebP header has no size") }
            // Every chunk up to the image data must be there before a pixel is allocated.
            try WebPContainerCheck.checkComplete(bytes)
            let orientation = WebPMetadataChunks.orientation(in: bytes)
            let profile = options.colorPolicy == .ignore ? nil : WebPMetadataChunks.colorProfile(in: bytes)
            if header.isAnimated {
                return try decodeAnimation(bytes, header: header, orientation: orientation, profile: profile, options: options)
            }
            let target = options.targetSize(for: header.size, orientation: orientation)
            let pixels = try WebPStillDecoder.decode(bytes, header: header, target: target)
            return Image(
                pixels: pixels.converted(to: options.alphaMode), scale: options.scaleFactor,
                orientation: orientation, format: .webp, hasAlpha: header.hasAlpha, originalPixelSize: header.size,
                colorProfile: profile)
        }
    }

    /// A decoder for a still WebP that is still arriving (libwebp's `WebPIDecoder`): the rows so far.
    /// An animated WebP shows nothing until it has all arrived.
    public func makeIncrementalDecoder(options: ImageDecodingOptions) -> any ImageIncrementalDecoding {
        WebPIncrementalDecoder(options: options)
    }

    /// Encodes `image` as WebP (animated when it has more than one frame and
    /// ``ImageEncodingOptions/firstFrameOnly`` is off).
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard canEncode(format) else {
            throw WebImageError(.unsupportedFormat, "the WebP coder cannot encode \(format)")
        }
        let webp =
            if let animation = image.animation, animation.frameCount > 1, !options.firstFrameOnly {
                try WebPAnimatedEncoder.encode(animation, options: options)
            } else {
                try WebPStillEncoder.encode(image.pixels, options: options)
            }
        var written = webp
        if let profile = image.colorProfile, profile.colorSpace == .rgb {
            written = try WebPMetadataChunks.embedding(profile, in: written)
        }
        guard let metadata = ImageMetadata.toWrite(for: image, options: options) else { return written }
        return try WebPMetadataChunks.embedding(metadata, in: written)
    }

    /// WebP carries an RGB colour profile (`ICCP`).
    public func writesColorProfile(_ profile: ColorProfile, in format: ImageFormat) -> Bool {
        canEncode(format) && profile.colorSpace == .rgb
    }

    private func decodeAnimation(
        _ bytes: UnsafeRawBufferPointer, header: WebPHeader, orientation: ImageOrientation, profile: ColorProfile?,
        options: ImageDecodingOptions
    ) throws -> Image {
        let owned = OwnedBytes(bytes)
        // The demuxer counts the frames without decoding any: the budget is checked before frame 0.
        let info = try WebPAnimationInfo(bytes: owned, readsDurations: !options.firstFrameOnly)
        try options.checkAnimationBudget(frameCount: info.frameCount, canvasSize: info.canvas)
        let animated = info.frameCount > 1 && !options.firstFrameOnly
        let target = options.targetSize(for: info.canvas, frameCount: animated ? info.frameCount : 1, orientation: orientation)
        let source = WebPAnimatedSource(bytes: owned, info: info, outputSize: target, alphaMode: options.alphaMode)
        let first = try source.frame(at: 0)
        return Image(
            pixels: first.pixels, scale: options.scaleFactor, orientation: orientation, format: .webp,
            animation: animated ? source : nil, hasAlpha: header.hasAlpha, originalPixelSize: header.size,
            colorProfile: profile)
    }
}
