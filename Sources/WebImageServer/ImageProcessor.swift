import Foundation
import WebImage

/// Turns an original's bytes into the encoded result one URL asks for: limits from the header
/// first, then one decode (at a reduced size when the resize allows, e.g. JPEG's DCT scaling), the
/// transformers of the library, and one encode.
struct ImageProcessor: Sendable {
    let coders: ImageCodersManager
    let limits: ImageServerLimits
    let defaultQuality: Int
    /// Quality by output format, under the URL's `q` and `fq` and over ``defaultQuality``.
    let formatQuality: [ImageFormat: Int]
    let metrics: ServiceMetrics

    /// The formats whose encoders write every frame: an animated source stays animated in them,
    /// whichever was negotiated (AVIF as an image sequence, PNG as APNG).
    static let animatedFormats: Set<ImageFormat> = [.gif, .webp, .avif, .png, .apng]

    /// What one result needs, worked out from the source's header before any decode.
    struct Prepared: Sendable {
        var data: Data
        var options: ProcessingOptions
        var format: ImageFormat
        var animate: Bool
        var frameCount: Int
        var displayed: PixelSize
        var cropped: PixelSize
        var plan: ResizePlan?
        var decoding: ImageDecodingOptions
        /// The estimated peak of the work's memory (``MemoryEstimate``): its weight in the limiter.
        var estimatedPeakBytes: Int
        /// The encoded watermark `wm` draws (nil without one).
        var watermark: Data?
    }

    /// Reads the header, checks the limits, resolves the output format and the resize, and
    /// estimates the work's peak memory; decodes nothing.
    func prepare(_ data: Data, options: ProcessingOptions, output: OutputChoice, watermark: Data? = nil) throws -> Prepared {
        let header = try coders.readHeader(data)
        let stored = header.pixelSize
        guard stored.pixelCount <= limits.maxSourcePixels else {
            throw WebImageError.tooManyPixels(width: stored.width, height: stored.height, limit: limits.maxSourcePixels)
        }
        let format = output.resolve(sourceFormat: header.format, canEncode: coders.canEncode)
        let animate = header.frameCount > 1 && Self.animatedFormats.contains(format)
        let (framePixels, overflow) = header.frameCount.multipliedReportingOverflow(by: stored.pixelCount)
        if animate, overflow || framePixels > limits.maxAnimationPixels {
            throw WebImageError(
                .tooLarge,
                "the animation has \(header.frameCount) frames of \(stored.width)×\(stored.height), over the limit of \(limits.maxAnimationPixels) pixels")
        }
        let orientation = header.orientation ?? .up
        let displayed = orientation.swapsDimensions ? PixelSize(width: stored.height, height: stored.width) : stored
        let cropped = options.crop.map { Self.cropSize($0, of: displayed) } ?? displayed
        let plan = try ResizePlan(options: options, input: cropped, maxDimension: limits.maxResultDimension)

        var decoding = ImageDecodingOptions()
        decoding.firstFrameOnly = !animate
        decoding.maxPixelCount = limits.maxSourcePixels
        decoding.maxAnimationPixelCount = limits.maxAnimationPixels
        decoding.colorPolicy = options.colorPolicy
        decoding.metadataPolicy = options.metadataPolicy
        if options.crop == nil {
            decoding.thumbnailPixelSize = plan?.decodeBox(displayed: displayed)
            // The resize below makes the exact size: a JPEG stops at its DCT scale (one resample).
            decoding.draft = true
        }
        let decoded = decoding.thumbnailPixelSize.map { box in
            PixelSize(width: min(box.width, displayed.width), height: min(box.height, displayed.height))
        } ?? displayed
        let result = plan.map { $0.resultSize(entering: cropped) } ?? cropped
        let estimate = MemoryEstimate.peakBytes(
            allocated: MemoryEstimate.allocatedPixels(format: header.format, displayed: displayed, box: decoding.thumbnailPixelSize),
            decoded: decoded, result: result, format: format, frames: animate ? header.frameCount : 1,
            hasAlpha: header.hasAlpha ?? true)
        let drawn = options.watermark == nil ? nil : watermark
        return Prepared(
            data: data, options: options, format: format, animate: animate, frameCount: header.frameCount, displayed: displayed,
            cropped: cropped, plan: plan, decoding: decoding, estimatedPeakBytes: estimate + (try drawn.map(watermarkBytes) ?? 0),
            watermark: drawn)
    }

    /// Decodes, transforms and encodes what ``prepare(_:options:output:)`` worked out.
    func render(_ prepared: Prepared) async throws -> (data: Data, format: ImageFormat) {
        let (data, options, format, animate, plan, decoding, cropped) = (
            prepared.data, prepared.options, prepared.format, prepared.animate, prepared.plan, prepared.decoding, prepared.cropped
        )
        try Self.checkCancellation("before decoding")
        let image = try await metrics.measure("decode") { try coders.decode(data, options: decoding) }
        try Self.checkCancellation("after decoding")

        // What enters the resize: the crop, else the decoded image (smaller after a reduced decode).
        let entering = options.crop != nil ? cropped : Self.displayedSize(of: image)
        let crop: [any ImageTransforming] = options.crop.map { [GravityCropTransformer(size: cropped, anchor: $0.gravity ?? options.gravity)] } ?? []
        let watermark = try watermarkTransformer(prepared)
        let steps = crop + (plan?.transformers(entering: entering) ?? [])
            + options.editTransformers(maxPixelCount: limits.maxSourcePixels) + watermark
        let result = try await metrics.measure("transform") {
            steps.isEmpty ? image : try ChainedTransformer(steps).transform(image)
        }
        try Self.checkCancellation("after transforming")
        let size = Self.displayedSize(of: result)
        guard size.width <= limits.maxResultDimension, size.height <= limits.maxResultDimension else {
            throw WebImageError(
                .tooLarge, "the result is \(size.width)×\(size.height), over the limit of \(limits.maxResultDimension) per side")
        }
        let quality = options.quality(for: format, defaults: formatQuality, defaultQuality: defaultQuality)
        var encoding = ImageEncodingOptions(quality: Double(quality) / 100)
        encoding.firstFrameOnly = !animate
        encoding.metadataPolicy = options.metadataPolicy
        if let background = options.background { encoding.backgroundColor = background }
        encoding = encoding.budgeted(maxBytes: options.maxBytes, for: format)
        let encoded = try await metrics.measure("encode") { try coders.encode(result, as: format, options: encoding) }
        return (encoded, format)
    }

    /// The memory a watermark adds, from its header: its decode and its premultiplied copy (a
    /// scaled copy is at most the result's size, within the estimate's margin). A watermark over
    /// the source pixel limit is refused as a source would be.
    func watermarkBytes(_ data: Data) throws -> Int {
        let size = try coders.readHeader(data).pixelSize
        guard size.pixelCount <= limits.maxSourcePixels else {
            throw WebImageError.tooManyPixels(width: size.width, height: size.height, limit: limits.maxSourcePixels)
        }
        return size.pixelCount * 8
    }

    /// The watermark step, drawn last (none without `wm` and its image); the watermark is decoded
    /// here, on the processing executor, within the source limits.
    func watermarkTransformer(_ prepared: Prepared) throws -> [any ImageTransforming] {
        guard let watermark = prepared.options.watermark, let data = prepared.watermark else { return [] }
        var decoding = ImageDecodingOptions()
        decoding.firstFrameOnly = true
        decoding.maxPixelCount = limits.maxSourcePixels
        return [watermark.transformer(overlay: try coders.decode(data, options: decoding))]
    }

    /// Throws `cancelled` when the request's job was abandoned (every waiter timed out or left).
    static func checkCancellation(_ stage: String) throws {
        if Task.isCancelled { throw WebImageError(.cancelled, "the image was no longer wanted (\(stage))") }
    }

    /// The size a crop keeps of a `displayed`-sized image (0: that side whole).
    static func cropSize(_ crop: ProcessingOptions.Crop, of displayed: PixelSize) -> PixelSize {
        PixelSize(
            width: crop.width == 0 ? displayed.width : min(crop.width, displayed.width),
            height: crop.height == 0 ? displayed.height : min(crop.height, displayed.height))
    }

    /// The displayed size of a decoded image (width and height swapped for orientations 5–8).
    static func displayedSize(of image: Image) -> PixelSize {
        image.orientation.swapsDimensions ? PixelSize(width: image.pixelSize.height, height: image.pixelSize.width) : image.pixelSize
    }
}
