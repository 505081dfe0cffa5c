public import Foundation
import Synchronization

/// A coder made of coders, asked in reverse order of registration: the last added wins
/// (SDWebImage's `SDImageCodersManager`).
///
/// This is where decoded animations join the frame pool: an image of more than one frame comes
/// back over a ``PooledAnimation`` in ``framePool`` (whichever coder decoded it), so its frames
/// share the process-wide budget. A first-frame-only decode is a plain image.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [JPEGCoder(), PNGCoder()])
/// coders.addCoder(MyFasterJPEGCoder())      // now asked first for JPEG
/// let image = try coders.decode(data)
/// ```
public final class ImageCodersManager: ImageCoding {
    private let registered: Mutex<[any ImageCoding]>
    /// Where the frames of decoded animations are kept (``AnimatedFramePool/shared`` by default).
    public let framePool: AnimatedFramePool
    /// What converts images with a colour profile to sRGB under ``ColorPolicy/sRGB``
    /// (`WebImageColor`'s lcms2 converter in ``standard()``); without one, profiles are kept on
    /// the image and the pixels left as stored.
    public let colorConverter: (any ColorConverting)?

    /// Creates a manager holding `coders` (the last one is asked first), keeping decoded
    /// animations' frames in `framePool` and converting colour profiles with `colorConverter`.
    public init(
        coders: [any ImageCoding] = [], framePool: AnimatedFramePool = .shared, colorConverter: (any ColorConverting)? = nil
    ) {
        registered = Mutex(coders)
        self.framePool = framePool
        self.colorConverter = colorConverter
    }

    public var name: String { "manager" }

    /// The registered coders, in registration order.
    public var coders: [any ImageCoding] {
        get { registered.withLock { $0 } }
        set { registered.withLock { $0 = newValue } }
    }

    /// Registers a coder; it is asked before every coder already registered.
    public func addCoder(_ coder: any ImageCoding) {
        registered.withLock { $0.append(coder) }
    }

    /// Removes every coder with this name.
    public func removeCoder(named name: String) {
        registered.withLock { $0.removeAll { $0.name == name } }
    }

    public func canDecode(_ data: Data) -> Bool {
        coders.contains { $0.canDecode(data) }
    }

    public func canEncode(_ format: ImageFormat) -> Bool {
        coders.contains { $0.canEncode(format) }
    }

    /// Decodes with the last registered coder that recognises the bytes. A coder's own error
    /// comes back as ``WebImageError/Code/decodingFailed`` naming the coder, with the error as the
    /// cause.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        try decode(data, options: options, using: nil)
    }

    /// Decodes with `coder` when given (SDWebImage's per-request `imageCoder` context), otherwise
    /// with the last registered coder that recognises the bytes. Animations come back pooled in
    /// ``framePool``.
    public func decode(_ data: Data, options: ImageDecodingOptions, using coder: (any ImageDecoding)?) throws
        -> Image
    {
        if let coder {
            return try finish(coder.decodeWrappingErrors(data, options: options), options: options, metadata: coder, data)
        }
        guard !data.isEmpty else { throw WebImageError.badData("no image data (0 bytes)") }
        for coder in coders.reversed() where coder.canDecode(data) {
            return try finish(coder.decodeWrappingErrors(data, options: options), options: options, metadata: coder, data)
        }
        let format = ImageFormat.detect(in: data)
        if format == .undefined {
            throw WebImageError.badData("unrecognised image data (\(data.count) bytes, no known signature)")
        }
        throw WebImageError(.unsupportedFormat, "no coder registered for \(format)")
    }

    /// A decoded image as the options ask: its colour profile applied or dropped, its metadata
    /// read from `data` by `coder` (when it is an ``ImageMetadataReading``) and cut down to
    /// ``ImageDecodingOptions/metadataPolicy``, its animation pooled.
    private func finish(_ image: Image, options: ImageDecodingOptions, metadata coder: any ImageDecoding, _ data: Data) throws
        -> Image
    {
        let converted = try applyingColorPolicy(image, options: options)
        var metadata: ImageMetadata?
        if options.metadataPolicy != .strip {
            metadata = (coder as? any ImageMetadataReading)?.readMetadata(data)?.applying(options.metadataPolicy)
        }
        let withMetadata = converted.metadata == metadata ? converted : converted.replacingMetadata(metadata)
        return withMetadata.pooled(in: framePool)
    }

    /// `image` with its colour profile converted to sRGB, kept or dropped, as
    /// ``ImageDecodingOptions/colorPolicy`` says.
    func applyingColorPolicy(_ image: Image, options: ImageDecodingOptions) throws -> Image {
        guard image.colorProfile != nil else { return image }
        switch options.colorPolicy {
        case .sRGB: return try colorConverter?.convertToSRGB(image) ?? image
        case .keep: return image
        case .ignore: return image.droppingColorProfile()
        }
    }

    /// Encodes with the last registered coder that writes `format`, applying the options' size
    /// limits and the image's orientation through ``ImageCodersManager/Encoding``.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        try encode(image, as: format, options: options, using: nil)
    }

    /// Encodes with `coder` when given, otherwise with the last registered coder for `format`.
    public func encode(
        _ image: Image, as format: ImageFormat, options: ImageEncodingOptions, using coder: (any ImageEncoding)?
    ) throws -> Data {
        let chosen = coder ?? coders.last { $0.canEncode(format) }
        guard let chosen else { throw WebImageError(.unsupportedFormat, "no coder can encode \(format)") }
        var written = image
        if let profile = image.colorProfile, !chosen.writesColorProfile(profile, in: format) {
            // A format that cannot say what its pixels mean gets them in sRGB, as every reader assumes.
            written = try colorConverter?.convertToSRGB(image).replacingMetadata(image.metadata) ?? image.droppingColorProfile()
        }
        return try ImageCodersManager.Encoding.encode(written, as: format, options: options, with: chosen)
    }
}
