public import Foundation

/// The metadata an image file carries beside its pixels: an EXIF TIFF structure, an XMP packet
/// and IPTC-IIM records, each as its bytes.
///
/// Decoders put a source's metadata on ``Image/metadata`` when ``ImageDecodingOptions/metadataPolicy``
/// asks for it (already cut down to that policy); encoders write what ``ImageEncodingOptions/metadataPolicy``
/// keeps of it in the formats that can carry it (see ``written(policy:orientation:pixelSize:)``).
///
/// ```swift
/// let metadata = ImageMetadata(exif: tiffBytes, xmp: nil, iptc: nil)
/// let safe = metadata.applying(.keep)        // the GPS directory removed
/// print(safe?.orientation ?? .up)
/// ```
public struct ImageMetadata: Sendable, Hashable {
    /// A TIFF structure (`II*\0` or `MM\0*`, without JPEG's `Exif\0\0` prefix), or nil.
    public var exif: Data?
    /// An XMP packet (UTF-8 RDF/XML), or nil.
    public var xmp: Data?
    /// IPTC-IIM records (`1C` record dataset length value…), or nil.
    public var iptc: Data?

    /// The largest EXIF, XMP or IPTC block read or written: larger ones are dropped.
    public static let maxByteCount = 4 << 20

    /// Metadata made of these blocks; empty ones, and ones over ``maxByteCount``, are left out. A
    /// leading `Exif\0\0` before the TIFF structure is removed.
    public init(exif: Data? = nil, xmp: Data? = nil, iptc: Data? = nil) {
        func usable(_ data: Data?) -> Data? {
            guard let data, !data.isEmpty, data.count <= Self.maxByteCount else { return nil }
            return data
        }
        let exifPrefix = Data("Exif\0\0".utf8)
        self.exif = usable(exif.map { $0.starts(with: exifPrefix) ? Data($0.dropFirst(exifPrefix.count)) : $0 })
        self.xmp = usable(xmp)
        self.iptc = usable(iptc)
    }

    /// Whether no block is present.
    public var isEmpty: Bool { exif == nil && xmp == nil && iptc == nil }

    /// The orientation the metadata states: EXIF's tag 274, else XMP's `tiff:Orientation`; nil
    /// when neither says.
    public var orientation: ImageOrientation? {
        if let exif, let orientation = ExifOrientationReader.orientation(inTIFF: [UInt8](exif)) { return orientation }
        return xmp.flatMap { XMPPacket.orientation(in: [UInt8]($0)) }
    }

    /// What `policy` keeps of this metadata; nil when it keeps nothing. A block that cannot be
    /// parsed is dropped (its contents cannot be vouched for) under every policy.
    public func applying(_ policy: MetadataPolicy) -> ImageMetadata? {
        edited(policy: policy, orientation: nil, pixelSize: nil)
    }

    /// The metadata to write beside pixels of `pixelSize` that display with `orientation`: what
    /// `policy` keeps, with the orientation (EXIF tag 274, XMP `tiff:Orientation`) set to
    /// `orientation` where it is stated (and added to EXIF when it is not `.up`) and the stated
    /// dimensions (EXIF PixelXDimension/PixelYDimension and ImageWidth/ImageLength, XMP
    /// `exif:PixelXDimension`, `exif:PixelYDimension`, `tiff:ImageWidth`, `tiff:ImageLength`) set
    /// to `pixelSize`. Nil when nothing is kept.
    public func written(policy: MetadataPolicy, orientation: ImageOrientation, pixelSize: PixelSize) -> ImageMetadata? {
        edited(policy: policy, orientation: orientation, pixelSize: pixelSize)
    }

    private func edited(policy: MetadataPolicy, orientation: ImageOrientation?, pixelSize: PixelSize?) -> ImageMetadata? {
        guard policy != .strip else { return nil }
        let exif = self.exif.flatMap { data -> Data? in
            guard var structure = try? ExifStructure(parsing: [UInt8](data)) else { return nil }
            structure.apply(policy)
            if let orientation { structure.setOrientation(orientation) }
            if let pixelSize { structure.setPixelSize(pixelSize) }
            return structure.isEmpty ? nil : Data(structure.serialized())
        }
        let xmp = self.xmp.flatMap { data -> Data? in
            guard let packet = try? XMPPacket(parsing: [UInt8](data)) else { return nil }
            return packet.edited(policy: policy, orientation: orientation, pixelSize: pixelSize).map { Data($0) }
        }
        let iptc = self.iptc.flatMap { data -> Data? in
            guard let records = try? IPTCRecords(parsing: [UInt8](data)) else { return nil }
            let kept = records.applying(policy)
            return kept.isEmpty ? nil : Data(kept.serialized())
        }
        let result = ImageMetadata(exif: exif, xmp: xmp, iptc: iptc)
        return result.isEmpty ? nil : result
    }
}

extension ImageMetadata {
    /// What an encoder writes beside `image`'s pixels under `options`: `image`'s metadata cut down
    /// to ``ImageEncodingOptions/metadataPolicy``, stating `image`'s orientation and pixel size
    /// (see ``written(policy:orientation:pixelSize:)``); nil for none.
    ///
    /// ```swift
    /// if let metadata = ImageMetadata.toWrite(for: image, options: options) { … }
    /// ```
    public static func toWrite(for image: Image, options: ImageEncodingOptions) -> ImageMetadata? {
        image.metadata?.written(policy: options.metadataPolicy, orientation: image.orientation, pixelSize: image.pixelSize)
    }
}
