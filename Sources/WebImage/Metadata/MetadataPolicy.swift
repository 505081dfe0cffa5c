/// What happens to a source's EXIF, XMP and IPTC metadata on its way to an output file.
///
/// imgproxy strips metadata by default (`strip_metadata`) and can keep the copyright
/// (`keep_copyright`); libvips keeps everything unless told otherwise, GPS position included.
/// Every policy but ``keepAll`` drops the GPS position. Whatever is kept is made true of the
/// output: the orientation is written as the pixels need it (1 when they were rotated, which
/// ``ImageCodersManager`` always does) and the written dimensions are the output's.
///
/// ```swift
/// var decoding = ImageDecodingOptions()
/// decoding.metadataPolicy = .copyright          // the image keeps its copyright and artist
/// let image = try coders.decode(data, options: decoding)
/// let jpeg = try coders.encode(image, as: .jpeg, options: ImageEncodingOptions(metadataPolicy: .copyright))
/// ```
public enum MetadataPolicy: String, Sendable, Hashable, CaseIterable {
    /// Write no metadata (the default): the smallest file, nothing private leaks.
    case strip
    /// Keep only who made the image and who owns it: EXIF Copyright and Artist (IFD0), XMP
    /// `dc:rights`, `dc:creator`, every `xmpRights:` property and `photoshop:Credit`, IPTC
    /// By-line, Credit and Copyright Notice.
    case copyright
    /// Keep EXIF, XMP and IPTC without the GPS position (the EXIF GPS directory and XMP's
    /// `exif:GPS…` properties).
    case keep
    /// Keep EXIF, XMP and IPTC, GPS position included.
    case keepAll = "keep-all"
}
