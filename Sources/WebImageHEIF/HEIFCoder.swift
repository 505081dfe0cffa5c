public import Foundation
import CHEIF
public import WebImage

/// Decodes HEIC and HEIF with libheif; encodes HEIC where libheif has an HEVC encoder (x265).
///
/// Decoding reads the primary image. libheif applies the container's `irot`, `imir` and `clap`
/// transforms while decoding (the HEIF rule: they are part of the image), so the result is upright
/// and ``Image/orientation`` is always `.up`; an Exif orientation stored in the file is not applied
/// again (in HEIF it only repeats the transforms, so applying both would rotate twice). When a
/// thumbnail size is asked for and the file carries a thumbnail at least that large, the
/// thumbnail is decoded instead of the primary image; either way the result is resampled to the
/// requested size with ``Resampler``. HEIF image sequences (`msf1`) decode as their primary image.
///
/// Files with a generic `mif1` brand whose compatible brands do not say AVIF are HEIF and come
/// here, whatever their codec (libheif also decodes AV1 items when it has an AV1 decoder); files
/// branded `avif`/`avis` go to the AVIF coder.
///
/// ```swift
/// let coder = HEIFCoder()
/// var options = ImageDecodingOptions()
/// options.thumbnailPixelSize = PixelSize(width: 256, height: 256)
/// let thumbnail = try coder.decode(heicData, options: options)
/// ```
public struct HEIFCoder: ImageCoding {
    /// The largest side of a thumbnail embedded when encoding, or nil for none.
    public var embeddedThumbnailSide: Int?

    /// Converts 10- and 12-bit images with a non-sRGB profile to sRGB from their own samples under
    /// ``ColorPolicy/sRGB`` (one rounding to 8 bits); without it they are reduced to 8 bits and
    /// converted afterwards by the manager.
    public let colorConverter: (any ColorConverting)?

    /// Creates the coder; with `embeddedThumbnailSide`, encoded files also carry a thumbnail of at
    /// most that many pixels a side (as cameras write), which thumbnail decodes then use. Give it
    /// the manager's `colorConverter` (as `ImageCodersManager.standard()` does) to convert 10- and
    /// 12-bit sources at their own precision.
    public init(embeddedThumbnailSide: Int? = nil, colorConverter: (any ColorConverting)? = nil) {
        self.embeddedThumbnailSide = embeddedThumbnailSide.map { max(1, $0) }
        self.colorConverter = colorConverter
    }

    /// `"heif"`.
    public var name: String { "heif" }

    /// Whether libheif can write HEIC here (an HEVC encoder such as x265 is installed).
    public static var canEncodeHEIC: Bool { HEIFEncoder.isAvailable }

    /// Whether the bytes are an ISO-BMFF file whose `ftyp` brands say HEIC or HEIF.
    public func canDecode(_ data: Data) -> Bool {
        let format = ImageFormat.detect(in: data)
        return format == .heic || format == .heif
    }

    /// Whether `format` is ``ImageFormat/heic`` or ``ImageFormat/heif`` (both written as HEVC).
    /// Encoding throws ``WebImageError/Code/unsupportedFormat`` when libheif has no HEVC encoder.
    public func canEncode(_ format: ImageFormat) -> Bool {
        format == .heic || format == .heif
    }

    /// Decodes the primary image (or a large enough embedded thumbnail when a thumbnail is asked for).
    ///
    /// Throws ``WebImageError/Code/tooLarge`` when the primary image's size, or the canvas a grid
    /// or overlay item declares, exceeds ``ImageDecodingOptions/maxPixelCount`` (read from the
    /// container before anything is decoded),
    /// and ``WebImageError/Code/badImageData`` for corrupt or truncated data.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        let format = ImageFormat.detect(in: data) == .heif ? ImageFormat.heif : .heic
        return try data.withUnsafeBytes { bytes in
            try HEIFDerivedImages.checkPixelLimit(bytes, maxPixelCount: options.maxPixelCount)
            let context = try HEIFContext(bytes: bytes)
            let primary = try context.primaryImage()
            let size = primary.size
            try options.checkPixelLimit(size)
            let target = options.targetSize(for: size)
            let source = target == size ? primary : Self.thumbnail(of: primary, atLeast: target) ?? primary
            let profile = options.colorPolicy == .ignore ? nil : primary.colorProfile
            // A 10- or 12-bit image with a non-sRGB profile is converted from its own samples.
            var wide: PixelBuffer?
            if let transform = options.wideTransform(for: profile, bitDepth: source.bitDepth, converter: colorConverter) {
                wide = try source.decodeWide(
                    maxPixelCount: options.maxPixelCount, transform: transform,
                    allowsWideBuffer: { options.allowsWideBuffer(pixelCount: $0) })
            }
            let decoded = try wide ?? source.decodeRGBA(maxPixelCount: options.maxPixelCount)
            let sized = decoded.size == target ? decoded : Resampler.resample(decoded, to: target)
            return Image(
                pixels: sized.converted(to: options.alphaMode), scale: options.scaleFactor, orientation: .up,
                format: format, hasAlpha: primary.hasAlpha, originalPixelSize: size, colorProfile: wide == nil ? profile : nil)
        }
    }

    /// Encodes `image` as HEIC (the first frame of an animation), with its RGB colour profile, its
    /// metadata as the options' policy keeps it, and an embedded thumbnail when
    /// ``embeddedThumbnailSide`` is set.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard canEncode(format) else {
            throw WebImageError(.unsupportedFormat, "the HEIF coder cannot encode \(format)")
        }
        return try HEIFEncoder.encode(
            image.pixels, options: options, thumbnailSide: embeddedThumbnailSide,
            profile: image.colorProfile?.colorSpace == .rgb ? image.colorProfile : nil,
            metadata: ImageMetadata.toWrite(for: image, options: options))
    }

    /// HEIC carries an RGB colour profile (`colr` of type `prof`).
    public func writesColorProfile(_ profile: ColorProfile, in format: ImageFormat) -> Bool {
        canEncode(format) && profile.colorSpace == .rgb
    }

    /// The smallest embedded thumbnail that covers `target` with the primary image's shape.
    static func thumbnail(of primary: HEIFImageHandle, atLeast target: PixelSize) -> HEIFImageHandle? {
        let size = primary.size
        return primary.thumbnails()
            .filter { thumbnail in
                let t = thumbnail.size
                // Same shape (within a pixel of rounding), so resampling it equals resampling the primary.
                let sameShape = abs(t.width * size.height - t.height * size.width) <= max(size.width, size.height)
                return sameShape && t.width >= target.width && t.height >= target.height && t.pixelCount < size.pixelCount
            }
            .min { $0.size.pixelCount < $1.size.pixelCount }
    }
}

extension HEIFCoder: ImageHeaderReading {
    /// Reads a HEIF's container without decoding: the primary image's displayed size (after its
    /// transforms) and alpha; orientation `.up`, as decoding reports.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        guard canDecode(data) else { throw WebImageError.badData("not HEIF data (no heic/heix/mif1 ftyp brand)") }
        let format = ImageFormat.detect(in: data)
        return try data.withUnsafeBytes { bytes in
            let primary = try HEIFContext(bytes: bytes).primaryImage()
            let size = primary.size
            guard size.width > 0, size.height > 0 else { throw WebImageError.badData("HEIF primary image has no size") }
            return ImageHeader(
                format: format, pixelSize: size, hasAlpha: primary.hasAlpha, orientation: .up, colorProfile: primary.colorProfile)
        }
    }
}
