public import Foundation
public import WebImage

/// Decodes GIF (87a and 89a), still and animated, with our LZW decoder (index for index what
/// giflib decodes), and encodes it with giflib.
///
/// Decoding composites every frame on the canvas (disposal 0–3, transparency, interlace, local and
/// global palettes, clipping) and returns frame 0 as ``Image/pixels``; animated GIFs get an
/// ``Image/animation`` that decodes the other frames on demand. The rules:
/// - Canvas: the logical screen, enlarged to contain frame 0 when frame 0 is larger (as Firefox,
///   Chromium and Pillow do); later frames are clipped to it.
/// - Initial canvas: transparent when frame 0 has a transparent index, otherwise entry 0 of frame
///   0's palette (what Pillow shows; it only shows where frame 0 does not cover the canvas).
/// - Disposal 2 clears the frame's rectangle to transparent (browsers, ImageIO); 3 restores it.
/// - Indices outside the palette are opaque black; a GIF without any palette reads as greys.
/// - Loop count: the raw NETSCAPE2.0 (or ANIMEXTS1.0) value of the first such extension,
///   0 = forever, and 1 when the extension is absent. Delays of 10 ms or less last 100 ms
///   (``FrameDurationRule``); the stored delay is ``AnimatedImageSource/storedDuration(at:)``.
/// - A file truncated after some complete frames keeps those frames; one without a complete frame
///   is `badImageData`. Stray bytes between blocks are skipped (GIF87a's rule).
/// - `tooLarge` when the canvas, any frame, or the extent of all frames exceeds
///   ``ImageDecodingOptions/maxPixelCount``, checked before decoding pixels.
///
/// Encoding quantizes each frame to at most 255 colours plus one transparent index (alpha < 128)
/// with our ``PaletteQuantizer``; images with at most 256 colours (255 with transparency) keep their
/// exact palette. ``ImageEncodingOptions/quality`` maps to the colour count (see
/// ``PaletteQuantizer/colorCount(forQuality:)``); Floyd–Steinberg dithering applies when colours
/// had to be reduced, unless turned off with ``init(dithering:)``.
///
/// ```swift
/// let coder = GIFCoder()
/// let image = try coder.decode(data)
/// let encoded = try coder.encode(image, as: .gif, options: ImageEncodingOptions())
/// ```
public struct GIFCoder: ImageCoding, ImageProgressiveDecoding {
    /// Whether the encoder dithers images whose colours had to be reduced.
    public let dithering: Bool

    /// A GIF coder; `dithering` turns Floyd–Steinberg dithering on (the default) or off.
    public init(dithering: Bool = true) {
        self.dithering = dithering
    }

    /// `"gif"`.
    public var name: String { "gif" }

    /// Whether the bytes start with `GIF87a` or `GIF89a`.
    public func canDecode(_ data: Data) -> Bool {
        data.withUnsafeBytes { GIFContainer.hasSignature($0) }
    }

    /// Whether `format` is ``ImageFormat/gif``.
    public func canEncode(_ format: ImageFormat) -> Bool { format == .gif }

    /// Decodes GIF data; see the type's documentation for the rules.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        try GIFDecoder.decode(data, options: options)
    }

    /// A decoder for a GIF that is still arriving: one image per completed frame, composited.
    public func makeIncrementalDecoder(options: ImageDecodingOptions) -> any ImageIncrementalDecoding {
        GIFIncrementalDecoder(options: options)
    }

    /// Encodes `image` (every frame of an animation unless `options.firstFrameOnly`) as GIF, with
    /// its RGB colour profile (`ICCRGBG1` extension) and the XMP that
    /// ``ImageEncodingOptions/metadataPolicy`` keeps (`XMP Data` extension; GIF has no EXIF or
    /// IPTC carrier).
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard format == .gif else {
            throw WebImageError(.unsupportedFormat, "GIFCoder cannot encode \(format)")
        }
        return try GIFEncoder(dithering: dithering, quality: options.quality)
            .encode(
                image, firstFrameOnly: options.firstFrameOnly,
                profile: image.colorProfile?.colorSpace == .rgb ? image.colorProfile : nil,
                xmp: ImageMetadata.toWrite(for: image, options: options)?.xmp)
    }

    /// GIF carries an RGB colour profile (the `ICCRGBG1` application extension).
    public func writesColorProfile(_ profile: ColorProfile, in format: ImageFormat) -> Bool {
        canEncode(format) && profile.colorSpace == .rgb
    }
}
