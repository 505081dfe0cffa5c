public import WebImage
import WebImageCodecs

/// What an image holds, read from its header only: the JSON of `webimage info --json` and of
/// the service's `/info/…` endpoint (which adds ``etag`` and, when asked, ``thumbHash``).
///
/// ```swift
/// let info = ImageInfo(file: "a.png", fileSize: data.count, header: try coders.readHeader(data))
/// ```
public struct ImageInfo: Encodable, Sendable {
    /// The file or URL the facts are about.
    public var file: String
    /// The format's name (`jpeg`, `webp`, …).
    public var format: String
    /// The stored width in pixels.
    public var width: Int
    /// The stored height in pixels.
    public var height: Int
    /// Frames (1 for a still image).
    public var frameCount: Int
    /// An animation's loop count (0: forever).
    public var loopCount: Int?
    /// Seconds each frame is shown (after the 10 ms → 100 ms rule).
    public var durations: [Double]?
    /// Seconds each frame's container stores.
    public var storedDurations: [Double]?
    /// The EXIF orientation, 1–8.
    public var orientation: Int
    /// Whether the image may have transparent pixels.
    public var hasAlpha: Bool
    /// The embedded colour profile, when there is one.
    public var colorProfile: ColorProfileInfo?
    /// The EXIF, XMP and IPTC the file carries, when it has any (docs/metadata.md).
    public var metadata: MetadataInfo?
    /// The file's size in bytes.
    public var fileSize: Int
    /// The bytes its decoded pixels would take.
    public var memoryCost: Int
    /// The source's validator as the service sees it (its ETag, else its Last-Modified, else a
    /// digest of its bytes); only in the service's answers.
    public var etag: String?
    /// The ThumbHash placeholder (``WebImage/ThumbHash``), base64, when asked for.
    public var thumbHash: String?

    /// The facts of `header`, read from a file of `fileSize` bytes named `file`.
    public init(file: String, fileSize: Int, header: ImageHeader) {
        self.file = file
        format = header.format.rawValue
        width = header.pixelSize.width
        height = header.pixelSize.height
        frameCount = header.frameCount
        loopCount = header.loopCount
        durations = header.frameDurations
        storedDurations = header.storedFrameDurations
        orientation = (header.orientation ?? .up).rawValue
        hasAlpha = header.hasAlpha ?? false
        colorProfile = header.colorProfile.map(ColorProfileInfo.init)
        metadata = header.metadata.map(MetadataInfo.init)
        self.fileSize = fileSize
        memoryCost = header.decodedByteCount
    }
}

/// What ``ImageInfo`` says of an embedded colour profile.
public struct ColorProfileInfo: Encodable, Sendable {
    /// The profile's description tag, when it has one.
    public var name: String?
    /// `rgb`, `gray`, `cmyk` or `other`.
    public var space: String
    /// The profile's size in bytes.
    public var bytes: Int
    /// Whether it is sRGB for all practical purposes (decoding leaves the pixels as they are).
    public var isSRGB: Bool

    /// The facts of `profile`.
    public init(_ profile: ColorProfile) {
        name = profile.name
        space = profile.colorSpace.rawValue
        bytes = profile.data.count
        isSRGB = (try? LCMSColorConverter.shared.isSRGB(profile)) ?? false
    }
}
