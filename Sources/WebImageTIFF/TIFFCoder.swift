public import Foundation
public import WebImage

/// Decodes and encodes TIFF with libtiff: every layout libtiff reads, multi-page files as frames.
///
/// Decoding reads the first page's directory, checks its size against
/// ``ImageDecodingOptions/maxPixelCount`` and only then decodes it. 8-bit RGB, RGBA and greyscale
/// strips are copied as stored (unassociated alpha stays straight, so a round trip through
/// ``encode(_:as:options:)`` is exact); every other layout (palettes, bilevel and fax, CMYK,
/// YCbCr, 16-bit, tiles, JPEG-in-TIFF, …) goes through libtiff's `TIFFRGBAImage`, which gives
/// premultiplied alpha. A single 16-bit RGB or grey page (no alpha or unassociated alpha, not
/// JPEG) with a non-sRGB profile is converted to sRGB from its 16-bit samples, strip by strip or
/// row of tiles by row of tiles, under ``ColorPolicy/sRGB`` when the coder has a
/// ``colorConverter``. The `Orientation` tag is reported as ``Image/orientation``, never applied.
/// A multi-page file is an animation of its pages, decoded on demand, each shown for 0.1 s (TIFF
/// stores no durations), looping forever. Thumbnails are decoded at full size and resampled.
/// libtiff's errors and warnings are never printed: a corrupt file is a
/// ``WebImageError/Code/badImageData`` carrying libtiff's first error.
///
/// Encoding writes 8-bit RGB (RGBA with unassociated alpha when the image has transparent
/// pixels), deflate-compressed with the horizontal predictor at
/// ``ImageEncodingOptions/compressionLevel`` (default 6); an animation becomes one page per frame
/// unless ``ImageEncodingOptions/firstFrameOnly``.
///
/// ```swift
/// let coder = TIFFCoder()
/// let image = try coder.decode(data)
/// let pages = image.animation?.frameCount ?? 1
/// let tiff = try coder.encode(image, as: .tiff, options: ImageEncodingOptions())
/// ```
public struct TIFFCoder: ImageCoding {
    /// Converts 8-bit CMYK pages to sRGB through their CMYK profile (or the converter's standard
    /// one); without it, and under ``ColorPolicy/ignore``, libtiff's formula converts them. It also
    /// converts 16-bit RGB and grey pages with a non-sRGB profile from their 16-bit samples.
    public let colorConverter: (any ColorConverting)?

    /// Creates the coder. Give it the manager's `colorConverter` (as `ImageCodersManager.standard()`
    /// does) for colour-managed CMYK.
    public init(colorConverter: (any ColorConverting)? = nil) {
        self.colorConverter = colorConverter
    }

    /// `"tiff"`.
    public var name: String { "tiff" }

    /// Whether the bytes start with a TIFF header (`II*\0` or `MM\0*`).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(in: data) == .tiff
    }

    /// Whether `format` is ``ImageFormat/tiff``.
    public func canEncode(_ format: ImageFormat) -> Bool {
        format == .tiff
    }

    /// Decodes the first page, and the others on demand as frames.
    ///
    /// Throws ``WebImageError/Code/tooLarge`` when the first page exceeds
    /// ``ImageDecodingOptions/maxPixelCount`` or the pages together exceed
    /// ``ImageDecodingOptions/maxAnimationPixelCount``, before any pixel memory is allocated, and
    /// ``WebImageError/Code/badImageData`` for corrupt or truncated data.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        guard canDecode(data) else { throw WebImageError.badData("not TIFF data (no II*/MM* header)") }
        let file = try data.withUnsafeBytes { try TIFFFile($0, maxPixelCount: options.maxPixelCount) }
        let first = try file.pageInfo(0)
        try options.checkPixelLimit(first.size)
        let pageCount =
            options.firstFrameOnly
            ? 1 : file.pageCount(limit: options.maxAnimationFrameCount(framePixelCount: first.size.pixelCount) + 1)
        try options.checkAnimationBudget(frameCount: pageCount, canvasSize: first.size)
        let animated = pageCount > 1
        let target = options.targetSize(
            for: first.size, frameCount: animated ? pageCount : 1, orientation: first.orientation)
        let converter = options.colorPolicy == .ignore ? nil : colorConverter
        // A single 16-bit page with a non-sRGB profile is converted from its 16-bit samples; pages
        // of a multi-page file are converted by the manager as frames, through the profile.
        var wide: PixelBuffer?
        if !animated, first.bitsPerSample == 16,
            let transform = options.wideTransform(for: first.colorProfile, bitDepth: first.bitsPerSample, converter: converter)
        {
            wide = try file.decodeWidePage(
                0, maxPixelCount: options.maxPixelCount, transform: transform,
                allowsWideBuffer: { options.allowsWideBuffer(pixelCount: $0) })
        }
        let decoded = try wide ?? file.decodePage(0, maxPixelCount: options.maxPixelCount, converter: converter).pixels
        let pixels = target == decoded.size ? decoded : Resampler.resample(decoded, to: target)
        let source =
            animated
            ? TIFFPageSource(
                file: file, pageCount: pageCount, sourceCanvas: first.size, outputSize: target,
                alphaMode: options.alphaMode, maxPixelCount: options.maxPixelCount, converter: converter)
            : nil
        return Image(
            pixels: pixels.converted(to: options.alphaMode), scale: options.scaleFactor, orientation: first.orientation,
            format: .tiff, animation: source, hasAlpha: first.hasAlpha, originalPixelSize: first.size,
            colorProfile: options.colorPolicy == .ignore || wide != nil ? nil : first.colorProfile)
    }

    /// Encodes `image` as TIFF (one page per frame when it is animated and
    /// ``ImageEncodingOptions/firstFrameOnly`` is off).
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard canEncode(format) else {
            throw WebImageError(.unsupportedFormat, "the TIFF coder cannot encode \(format)")
        }
        // The pages are RGB(A): an RGB profile describes them (others are converted away first).
        let profile = image.colorProfile?.colorSpace == .rgb ? image.colorProfile : nil
        let tiff =
            if let animation = image.animation, animation.frameCount > 1, !options.firstFrameOnly {
                try TIFFEncoder.encode(
                    pageCount: animation.frameCount, options: options, profile: profile, page: { try animation.frame(at: $0).pixels })
            } else {
                try TIFFEncoder.encode(pageCount: 1, options: options, profile: profile, page: { _ in image.pixels })
            }
        // Metadata goes with the first page: its tags, Exif and GPS directories, XMP and IPTC.
        guard let metadata = ImageMetadata.toWrite(for: image, options: options) else { return tiff }
        return Data(try TIFFFileMetadata.embedding(metadata, in: [UInt8](tiff)))
    }

    /// TIFF carries an RGB colour profile (the ICCProfile tag).
    public func writesColorProfile(_ profile: ColorProfile, in format: ImageFormat) -> Bool {
        canEncode(format) && profile.colorSpace == .rgb
    }
}
