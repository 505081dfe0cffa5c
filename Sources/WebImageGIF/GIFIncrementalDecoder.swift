import Foundation
import WebImage

/// Decodes a GIF while it arrives: one image per completed frame, composited as the animation
/// shows it (the latest complete frame over what the earlier ones left); while the first frame
/// arrives, its rows so far (a non-interlaced first frame; below them, the canvas's initial fill).
///
/// Each append walks the block structure (one length byte per 255 data bytes) and decompresses
/// only the frames it completes; the canvas is kept from call to call. Only the first frame's
/// partial rows are decoded again from its start, each time an image is asked for until the frame
/// is complete. The logical
/// screen is checked against the pixel limit from the 13-byte header, the canvas and every frame
/// as the walk meets them, and the animation budget as frames are counted, as in a one-shot decode.
/// The file's bytes are kept, since each frame is read from its own offset.
final class GIFIncrementalDecoder: ImageIncrementalDecoding {
    private let options: ImageDecodingOptions
    private var bytes: [UInt8] = []
    private var container: GIFContainer?
    /// The canvas after the complete frames and the decoder session, which also decodes the rows
    /// of a first frame still arriving.
    private var playback = GIFPlayback()
    private var shownFrames = 0
    /// The first frame while it arrives (non-interlaced): decoded only when an image is asked for.
    private var partialFirstFrame: GIFFrameRecord?
    private var shownPartialRows = 0
    /// The `ICCRGBG1` profile, read once the first image's descriptor is in (the extension comes
    /// before it); nil under ``ColorPolicy/ignore``.
    private var colorProfile: ColorProfile?

    /// Only frame 0 is wanted (``ImageDecodingOptions/firstFrameOnly``): done once it is complete.
    private let firstFrameOnly: Bool

    init(options: ImageDecodingOptions) {
        firstFrameOnly = options.firstFrameOnly
        var walk = options
        walk.firstFrameOnly = false
        self.options = walk
    }

    var isComplete: Bool { (container?.reachedTrailer ?? false) || (firstFrameOnly && playback.canvas != nil) }

    func append(_ data: Data) throws {
        guard !isComplete else { return }
        bytes.append(contentsOf: data)
        guard bytes.count >= 13 else { return }
        if container == nil {
            guard bytes.withUnsafeBytes({ GIFContainer.hasSignature($0) }) else {
                throw WebImageError.badData("not a GIF (bad signature)")
            }
            let screen = PixelSize(width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
            try options.checkPixelLimit(screen)
        }
        let parsed: GIFContainer
        do {
            parsed = try bytes.withUnsafeBytes {
                try GIFContainer(parsing: $0, limits: options, allowsPartialFirstFrame: true)
            }
        } catch let error as WebImageError where error.code == .badImageData {
            return  // not even the first image's descriptor yet
        }
        if container == nil, options.colorPolicy != .ignore {
            colorProfile = bytes.withUnsafeBytes { parsed.applicationExtensions.colorProfile(in: $0) }
        }
        container = parsed
        try options.checkPixelLimit(parsed.canvasSize)
        if parsed.frames.isEmpty {
            partialFirstFrame = parsed.partialFrame.flatMap { $0.interlaced ? nil : $0 }
            return
        }
        partialFirstFrame = nil
        let renderer = GIFRenderer(bytes: bytes, container: parsed, maxPixelCount: options.maxPixelCount)
        let last = firstFrameOnly ? 0 : parsed.frames.count - 1
        if (playback.canvas?.drawnFrames ?? 0) <= last {
            try renderer.advance(&playback, to: last)
        }
    }

    /// The rows of the first frame that have arrived (the decoder does not suspend, so decoded from the
    /// frame's start each time), drawn on a fresh canvas; `nil` without a new whole row.
    private func partialFirstFrameCanvas(_ record: GIFFrameRecord, container: GIFContainer) throws -> GIFCanvas? {
        let decoder =
            playback.decoder ?? GIFDecompressor.webImage.makeDecoder(retainedCapacity: container.canvasSize.pixelCount)
        playback.decoder = decoder
        var rows = shownPartialRows
        do {
            let canvas = try bytes.withUnsafeBytes { raw in
                try decoder.decode(
                    raw, container: container, record: record, maxPixelCount: options.maxPixelCount, partial: true
                ) { frame -> GIFCanvas? in
                    guard frame.height > rows else { return nil }
                    rows = frame.height
                    var canvas = GIFCanvas(size: container.canvasSize, firstRecord: record, firstColors: frame.colors)
                    canvas.draw(frame, record: record)
                    return canvas
                }
            }
            shownPartialRows = rows
            return canvas
        } catch let error as WebImageError where error.code == .badImageData {
            return nil  // no whole row yet
        }
    }

    func currentImage() throws -> Image? {
        guard let container else { return nil }
        let pixels: PixelBuffer
        if let drawn = playback.canvas?.drawnFrames, drawn > shownFrames, let canvas = playback.canvas?.sharedBuffer() {
            shownFrames = drawn
            pixels = canvas
        } else if playback.canvas == nil, let record = partialFirstFrame,
            let partial = try partialFirstFrameCanvas(record, container: container)
        {
            pixels = partial.buffer
        } else {
            return nil
        }
        let output = GIFOutput(size: options.targetSize(for: container.canvasSize), alphaMode: options.alphaMode)
        return Image(
            pixels: output.shape(pixels), scale: options.scaleFactor, format: .gif,
            hasAlpha: container.hasTransparency || !pixels.isOpaque, originalPixelSize: container.canvasSize,
            colorProfile: colorProfile)
    }
}
