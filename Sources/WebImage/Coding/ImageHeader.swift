public import Foundation

/// What an image's header says, read without decoding any pixels.
///
/// A header probe costs a walk over the container's blocks or chunks (GIF frames are counted
/// without LZW decoding, APNG frames from `acTL`/`fcTL`, WebP frames with the demuxer), so it is
/// safe on hostile input: nothing is allocated in proportion to the declared size. The values
/// agree with what a full decode with default options reports (``Image/originalPixelSize``, the
/// animation's frame and loop counts, ``Image/hasAlpha``, ``Image/orientation``).
///
/// ```swift
/// let header = try ImageCodersManager.standard().readHeader(data)
/// print(header.format, header.pixelSize, header.frameCount, header.loopCount ?? 1)
/// ```
public struct ImageHeader: Hashable, Sendable {
    /// The format the bytes are in.
    public var format: ImageFormat
    /// The stored size (the canvas for animations), before any EXIF orientation.
    public var pixelSize: PixelSize
    /// How many frames a decode gives (1 for still images).
    public var frameCount: Int
    /// How many times an animation plays (0: forever); nil for still images.
    public var loopCount: Int?
    /// Each frame's duration in seconds as played (after ``FrameDurationRule``), for animations;
    /// nil for still images.
    public var frameDurations: [Double]?
    /// Each frame's delay in seconds as the container stores it (before ``FrameDurationRule``),
    /// for animations; nil for still images. A reader that passes none gets `frameDurations`.
    public var storedFrameDurations: [Double]?
    /// Whether the image declares alpha; nil when that cannot be known without decoding.
    public var hasAlpha: Bool?
    /// The EXIF orientation, `.up` when none is stored; nil when the format's header does not say.
    public var orientation: ImageOrientation?
    /// The embedded colour profile a decode would apply (``Image/colorProfile``, or for a CMYK
    /// JPEG the CMYK profile its inks are converted through); nil for none or for a format that
    /// carries none (GIF, SVG).
    public var colorProfile: ColorProfile?
    /// The EXIF, XMP and IPTC metadata the file carries, unfiltered; filled in by
    /// ``ImageCodersManager/readHeader(_:)`` from coders that adopt ``ImageMetadataReading``.
    public var metadata: ImageMetadata?

    /// A header of these properties.
    public init(
        format: ImageFormat, pixelSize: PixelSize, frameCount: Int = 1, loopCount: Int? = nil,
        frameDurations: [Double]? = nil, storedFrameDurations: [Double]? = nil, hasAlpha: Bool? = nil,
        orientation: ImageOrientation? = nil, colorProfile: ColorProfile? = nil,
        metadata: ImageMetadata? = nil
    ) {
        self.format = format
        self.pixelSize = pixelSize
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.frameDurations = frameDurations
        self.storedFrameDurations = storedFrameDurations ?? frameDurations
        self.hasAlpha = hasAlpha
        self.orientation = orientation
        self.colorProfile = colorProfile
        self.metadata = metadata
    }

    /// Whether the image has more than one frame.
    public var isAnimated: Bool { frameCount > 1 }

    /// Bytes of 8-bit RGBA a full decode of every frame takes: every frame's canvas (an
    /// animation holding all its frames), saturating at `Int.max`.
    public var decodedByteCount: Int {
        let (total, overflow) = pixelSize.rgbaByteCount.multipliedReportingOverflow(by: max(1, frameCount))
        return overflow ? .max : total
    }
}

/// Something that reads an ``ImageHeader`` from encoded bytes without decoding pixels.
///
/// Coders adopt it next to ``ImageDecoding``; ``ImageCodersManager`` asks the last registered
/// coder that recognises the bytes. Throws ``WebImageError``: `badImageData` when the header
/// itself is missing or corrupt. Sizes are reported as declared, never checked against limits.
public protocol ImageHeaderReading: Sendable {
    /// The header of `data`.
    func readHeader(_ data: Data) throws -> ImageHeader
}
