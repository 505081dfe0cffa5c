/// How to encode: quality, size limits and what to do with alpha and frames.
///
/// Mirrors SDWebImage's encode options (`SDImageCoderEncodeCompressionQuality`,
/// `…EncodeMaxPixelSize`, `…EncodeMaxFileSize`, `…EncodeFirstFrameOnly`,
/// `…EncodeBackgroundColor`).
///
/// ```swift
/// let data = try coders.encode(image, as: .webp, options: .init(quality: 0.8, maxFileSize: 50_000))
/// ```
public struct ImageEncodingOptions: Hashable, Sendable {
    /// Quality from 0 (smallest) to 1 (best), for lossy formats (JPEG, lossy WebP, AVIF, HEIC, lossy
    /// JPEG XL, where it maps to a Butteraugli distance as `cjxl --quality` does).
    public var quality: Double = 0.9
    /// zlib compression level 0–9 for PNG, and the deflate level 1–9 for TIFF (`nil`: the codec's
    /// default, 6).
    public var compressionLevel: Int?
    /// Encode WebP, JPEG XL, AVIF (4:4:4 with the identity matrix, bit-exact RGB) and HEIC (x265
    /// lossless at 4:4:4; its RGB → YCbCr conversion still rounds) losslessly.
    public var lossless: Bool = false
    /// Scale the image down to fit inside this size before encoding, keeping the aspect ratio.
    public var maxPixelSize: PixelSize?
    /// Search the quality (then the size) so that the output is at most this many bytes.
    public var maxFileSize: Int?
    /// The lowest quality the ``maxFileSize`` search goes down to before it shrinks the image
    /// (default 0; the service's `mb:` uses 0.1, as imgproxy).
    public var maxFileSizeQualityFloor: Double = 0
    /// The shortest side the ``maxFileSize`` search shrinks the image to (default 1).
    public var maxFileSizeMinimumSide: Int = 1
    /// What a ``maxFileSize`` that cannot be met gives: an ``WebImageError/Code/encodingFailed``
    /// error (`false`, the default), or the smallest encode the search made (`true`): the floor
    /// quality at the minimum size.
    public var acceptsSmallestOverMaxFileSize = false
    /// Encode only the first frame of an animated image.
    public var firstFrameOnly: Bool = false
    /// The colour that transparent pixels are composited onto for formats without alpha (JPEG).
    public var backgroundColor: RGBA8 = .white
    /// Write the image so that it can be shown while it downloads: a progressive JPEG (libjpeg's
    /// standard scan script: DC first, then spectral bands and refinements) or an Adam7-interlaced
    /// PNG. Other formats ignore it.
    public var progressive: Bool = false
    /// How much time the encoder may spend for smaller files, from 0 (slowest, smallest) to 10
    /// (fastest), for the video-based formats: AVIF (libavif's speed) and HEIC (x265 presets,
    /// 0 `placebo` … 10 `ultrafast`). `nil`: the codec's default (AVIF 6, as `avifenc`; HEIC
    /// libheif's `slow`). Values outside 0…10 are clamped.
    public var speed: Int?
    /// What of ``Image/metadata`` is written, in the formats that carry metadata (JPEG, PNG,
    /// WebP, TIFF, AVIF, HEIC): nothing by default (``MetadataPolicy/strip``). What is written
    /// states the written orientation and pixel size (``ImageMetadata/toWrite(for:options:)``).
    public var metadataPolicy: MetadataPolicy = .strip

    /// Options with these values; every one has a default.
    public init(
        quality: Double = 0.9,
        compressionLevel: Int? = nil,
        lossless: Bool = false,
        maxPixelSize: PixelSize? = nil,
        maxFileSize: Int? = nil,
        firstFrameOnly: Bool = false,
        backgroundColor: RGBA8 = .white,
        progressive: Bool = false,
        speed: Int? = nil,
        metadataPolicy: MetadataPolicy = .strip
    ) {
        self.quality = quality
        self.compressionLevel = compressionLevel
        self.lossless = lossless
        self.maxPixelSize = maxPixelSize
        self.maxFileSize = maxFileSize
        self.firstFrameOnly = firstFrameOnly
        self.backgroundColor = backgroundColor
        self.progressive = progressive
        self.speed = speed
        self.metadataPolicy = metadataPolicy
    }

    /// ``quality`` clamped to 0…1 and mapped to a codec's 0…100 scale.
    public var qualityPercent: Int { Int((min(1, max(0, quality)) * 100).rounded()) }
}
