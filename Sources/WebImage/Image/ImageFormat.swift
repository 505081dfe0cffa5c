/// An image container format, identified by magic bytes.
///
/// An open set like SDWebImage's `SDImageFormat`: coders for new formats may declare their own.
///
/// ```swift
/// let format = ImageFormat.detect(in: data)   // .png, .apng, .webp, …
/// ```
public struct ImageFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let undefined = ImageFormat(rawValue: "undefined")
    public static let jpeg = ImageFormat(rawValue: "jpeg")
    public static let png = ImageFormat(rawValue: "png")
    /// Animated PNG: a PNG whose `acTL` chunk comes before the first `IDAT`.
    public static let apng = ImageFormat(rawValue: "apng")
    public static let gif = ImageFormat(rawValue: "gif")
    public static let webp = ImageFormat(rawValue: "webp")
    public static let tiff = ImageFormat(rawValue: "tiff")
    public static let heic = ImageFormat(rawValue: "heic")
    public static let heif = ImageFormat(rawValue: "heif")
    public static let avif = ImageFormat(rawValue: "avif")
    public static let jpegXL = ImageFormat(rawValue: "jxl")
    public static let bmp = ImageFormat(rawValue: "bmp")
    public static let ico = ImageFormat(rawValue: "ico")
    public static let pdf = ImageFormat(rawValue: "pdf")
    public static let svg = ImageFormat(rawValue: "svg")
    /// Netpbm's binary pixmap (`P6`): 8-bit RGB, no compression.
    public static let ppm = ImageFormat(rawValue: "ppm")
    /// Netpbm's binary greymap (`P5`): 8-bit grey, no compression.
    public static let pgm = ImageFormat(rawValue: "pgm")
    /// Netpbm's arbitrary map (`P7`): 8-bit grey or RGB, with or without alpha.
    public static let pam = ImageFormat(rawValue: "pam")
    /// Any of ``ppm``, ``pgm`` or ``pam``, the writer choosing by the pixels (files named `.pnm`);
    /// bytes are never detected as this, but as the specific map they hold.
    public static let pnm = ImageFormat(rawValue: "pnm")

    /// The IANA media type, e.g. `image/webp`.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .apng: "image/apng"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .tiff: "image/tiff"
        case .heic: "image/heic"
        case .heif: "image/heif"
        case .avif: "image/avif"
        case .jpegXL: "image/jxl"
        case .bmp: "image/bmp"
        case .ico: "image/x-icon"
        case .pdf: "application/pdf"
        case .svg: "image/svg+xml"
        case .ppm: "image/x-portable-pixmap"
        case .pgm: "image/x-portable-graymap"
        case .pam: "image/x-portable-arbitrarymap"
        case .pnm: "image/x-portable-anymap"
        default: "application/octet-stream"
        }
    }

    /// The usual file extension, without the dot (`apng` files use `png`).
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .apng: "png"
        case .undefined: "bin"
        default: rawValue
        }
    }

    /// The format named by a file extension or short name (`jpg`, `jpeg`, `png`, `webp`, …).
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "png": self = .png
        case "apng": self = .apng
        case "gif": self = .gif
        case "webp": self = .webp
        case "tif", "tiff": self = .tiff
        case "heic": self = .heic
        case "heif": self = .heif
        case "avif": self = .avif
        case "jxl": self = .jpegXL
        case "bmp": self = .bmp
        case "ico": self = .ico
        case "pdf": self = .pdf
        case "svg": self = .svg
        case "ppm": self = .ppm
        case "pgm": self = .pgm
        case "pam": self = .pam
        case "pnm": self = .pnm
        default: return nil
        }
    }
}
