public import Foundation
public import WebImage
public import WebImageCodecs

/// The service's rendering without HTTP, caches or admission control: an original's bytes and
/// the options of a URL in, the bytes the service would answer out. `webimage fetch --preset`
/// and `convert --preset` render through it, so that they make the service's bytes.
///
/// ```swift
/// let renderer = ImageRenderer()
/// let options = try ProcessingOptions(segments: ["rs:fill:64:64", "f:webp"])
/// let (data, format) = try await renderer.render(jpegBytes, options: options)
/// ```
public struct ImageRenderer: Sendable {
    let processor: ImageProcessor

    /// A renderer with the service's limits, default quality and per-format qualities
    /// (``ImageServerConfiguration``'s).
    public init(
        coders: ImageCodersManager = .standard(), limits: ImageServerLimits = ImageServerLimits(), defaultQuality: Int = 80,
        formatQuality: [ImageFormat: Int] = [:]
    ) {
        processor = ImageProcessor(
            coders: coders, limits: limits, defaultQuality: defaultQuality, formatQuality: formatQuality, metrics: ServiceMetrics())
    }

    /// `data` rendered as `options` say, in their format (`f:`) or else the source's own (what
    /// the service answers a client whose `Accept` lists neither AVIF nor WebP), with `watermark`
    /// (an encoded image) drawn where `options.watermark` says. Decoding and encoding run on the
    /// calling thread.
    public func render(_ data: Data, options: ProcessingOptions, watermark: Data? = nil) async throws -> (data: Data, format: ImageFormat) {
        let output: OutputChoice
        switch options.format {
        case .explicit(let format): output = .format(format)
        case .auto: output = .sourceFormat
        }
        let prepared = try processor.prepare(data, options: options, output: output, watermark: watermark)
        return try await processor.render(prepared)
    }
}
