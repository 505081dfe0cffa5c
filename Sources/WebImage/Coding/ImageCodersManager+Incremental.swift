public import Foundation

extension ImageCodersManager: ImageProgressiveDecoding {
    /// An incremental decoder for a file starting with `data`, from the last registered coder that
    /// recognises it; `nil` when no coder recognises the bytes yet (too few of them, or an unknown
    /// format) or the one that does cannot decode incrementally.
    ///
    /// ```swift
    /// let decoder = ImageCodersManager.standard().makeIncrementalDecoder(for: firstBytes, options: options)
    /// ```
    public func makeIncrementalDecoder(for data: Data, options: ImageDecodingOptions) -> (any ImageIncrementalDecoding)? {
        guard let coder = coders.last(where: { $0.canDecode(data) }) else { return nil }
        if let manager = coder as? ImageCodersManager { return manager.makeIncrementalDecoder(for: data, options: options) }
        return (coder as? any ImageProgressiveDecoding)?.makeIncrementalDecoder(options: options)
    }

    /// An incremental decoder that picks its format's decoder once the first bytes are in (the
    /// ``ImageProgressiveDecoding`` conformance); it shows nothing when no registered coder can
    /// decode the format incrementally.
    public func makeIncrementalDecoder(options: ImageDecodingOptions) -> any ImageIncrementalDecoding {
        SniffingIncrementalDecoder(
            options: options,
            make: { [self] data, options in makeIncrementalDecoder(for: data, options: options) },
            finish: { [self] image in try applyingColorPolicy(image, options: options) })
    }
}

/// Holds the first bytes until a coder recognises them, then hands everything to that coder's
/// incremental decoder.
final class SniffingIncrementalDecoder: ImageIncrementalDecoding {
    /// Bytes enough for every signature this library sniffs; past them, the format is unknown.
    static let sniffLimit = 64

    private let options: ImageDecodingOptions
    private let make: (Data, ImageDecodingOptions) -> (any ImageIncrementalDecoding)?
    /// The colour policy, applied to every image shown.
    private let finish: (Image) throws -> Image
    private var head = Data()
    private var chosen: (any ImageIncrementalDecoding)?
    private var gaveUp = false

    init(
        options: ImageDecodingOptions, make: @escaping (Data, ImageDecodingOptions) -> (any ImageIncrementalDecoding)?,
        finish: @escaping (Image) throws -> Image
    ) {
        self.options = options
        self.make = make
        self.finish = finish
    }

    func append(_ data: Data) throws {
        if let chosen { return try chosen.append(data) }
        guard !gaveUp else { return }
        head.append(data)
        if let decoder = make(head, options) {
            chosen = decoder
            let bytes = head
            head = Data()
            try decoder.append(bytes)
        } else if head.count >= Self.sniffLimit {
            gaveUp = true
            head = Data()
        }
    }

    func currentImage() throws -> Image? { try chosen?.currentImage().map(finish) }

    var isComplete: Bool { chosen?.isComplete ?? false }
}
