import CPNGShim
import Foundation
import WebImage

/// Decodes a PNG while it arrives, through libpng's progressive reader (`png_process_data`).
///
/// Non-interlaced files show the rows so far (transparent below); Adam7-interlaced files show one
/// image per completed pass, each pass filling the pixels it stands for (blocky, then sharper). The
/// image is the default image (IDAT) of an APNG. The pixel limit is checked on IHDR's bytes and
/// again when libpng has read IHDR, before the bitmap is allocated.
///
/// libpng's progressive reader gives 8-bit rows. A 16-bit still whose profile the one-shot decode
/// converts from 16 bits (``ColorConverting/wideTransform(for:)``) keeps its bytes, and its last
/// image is that one-shot decode, so it equals what ``PNGCoder/decode(_:options:)`` gives.
final class PNGIncrementalDecoder: ImageIncrementalDecoding {
    private let options: ImageDecodingOptions
    private let converter: (any ColorConverting)?
    /// Every byte so far, kept only for a 16-bit file whose final image is decoded one-shot.
    private var whole: Data?
    private var stream: OpaquePointer?
    private var progress = webimage_png_stream_progress()
    private var head = Data()
    private var shownRows = 0
    private var shownPasses = 0
    private var shownFinal = false
    /// The bytes before the image data, kept until libpng has read them, for the `iCCP` and
    /// `eXIf` chunks (an `eXIf` after the image data is the one-shot decode's alone).
    private var preamble = Data()
    private var preambleRead = false
    private var colorProfile: ColorProfile?
    private var orientation = ImageOrientation.up

    init(options: ImageDecodingOptions, converter: (any ColorConverting)? = nil) {
        self.options = options
        self.converter = converter
    }

    deinit {
        webimage_png_stream_destroy(stream)
    }

    var isComplete: Bool { progress.complete != 0 }

    func append(_ data: Data) throws {
        // The cheapest check first, on IHDR's bytes, before libpng sees them.
        if progress.has_header == 0, head.count < 24 {
            head.append(data.prefix(24 - head.count))
            if options.maxPixelCount > 0, let size = head.withUnsafeBytes({ LibPNGDecoder.declaredSize($0) }),
                size.pixelCount > options.maxPixelCount
            {
                throw WebImageError.tooManyPixels(width: size.width, height: size.height, limit: options.maxPixelCount)
            }
        }
        whole?.append(data)
        if !preambleRead {
            preamble.append(data)
            // More than a profile's worth of chunks before the image data: none is looked for.
            if preamble.count > 2 * ColorProfile.maxByteCount { (preambleRead, preamble) = (true, Data()) }
        }
        let reader = try stream ?? makeStream()
        let status = data.withUnsafeBytes { bytes in
            webimage_png_stream_feed(reader, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &progress)
        }
        guard status == 0 else {
            let message = String(cString: webimage_png_stream_message(reader))
            if webimage_png_stream_too_large(reader) != 0 {
                throw WebImageError(.tooLarge, "PNG is over the limit of \(options.maxPixelCount) pixels (\(message))")
            }
            throw WebImageError.badData("corrupt PNG data: \(message)")
        }
        if progress.has_header != 0 {
            try options.checkPixelLimit(PixelSize(width: Int(progress.header.width), height: Int(progress.header.height)))
            if !preambleRead {
                // libpng has read every chunk before the image data: the profile is among them.
                let header = PNGHeader(progress.header)
                preamble.withUnsafeBytes { bytes in
                    let chunks = PNGChunkReader(bytes: bytes).chunks()
                    if options.colorPolicy != .ignore { colorProfile = PNGColorProfile.read(bytes, chunks: chunks, header: header) }
                    orientation = PNGExifOrientation.orientation(in: bytes, chunks: chunks)
                }
                if options.wideTransform(for: colorProfile, bitDepth: header.bitDepth, converter: converter) != nil {
                    whole = preamble  // every byte so far
                }
                (preambleRead, preamble) = (true, Data())
            }
        }
    }

    /// The row step of the rows Adam7 has delivered after `completedPasses` passes.
    static let rowStepAfterPasses = [8, 8, 8, 4, 4, 2, 2, 1]

    /// libpng spreads each pass's pixels across their columns ("blocky"); the rows later passes
    /// will deliver are still empty: each copies the delivered row above it, so every pass shows
    /// the whole picture.
    static func fillRowsOfLaterPasses(_ pixels: UnsafeMutableBufferPointer<UInt8>, size: PixelSize, completedPasses: Int) {
        let step = rowStepAfterPasses[min(max(completedPasses, 0), 7)]
        guard step > 1, let base = pixels.baseAddress else { return }
        let rowBytes = size.width * 4
        for y in 0..<size.height where y % step != 0 {
            (base + y * rowBytes).update(from: base + (y / step * step) * rowBytes, count: rowBytes)
        }
    }

    private func makeStream() throws -> OpaquePointer {
        guard let made = webimage_png_stream_create(UInt64(max(0, options.maxPixelCount))) else {
            throw WebImageError(.decodingFailed, "cannot create a libpng progressive reader")
        }
        stream = made
        return made
    }

    func currentImage() throws -> Image? {
        guard let stream, progress.has_header != 0, !shownFinal,
            let source = webimage_png_stream_pixels(stream)
        else { return nil }
        let complete = progress.complete != 0
        let interlaced = progress.header.interlaced != 0
        let rows = Int(progress.rows)
        let passes = Int(progress.completed_passes)
        if !complete {
            if interlaced ? passes <= shownPasses : rows <= shownRows { return nil }
        }
        if complete, let whole {
            self.whole = nil
            let oneShot = try PNGDecoder.decode(whole, options: options, converter: converter)
            if oneShot.animation == nil {
                shownFinal = true
                return oneShot
            }
        }
        let size = PixelSize(width: Int(progress.header.width), height: Int(progress.header.height))
        let straight = PixelBuffer(width: size.width, height: size.height, alphaMode: .straight) { out in
            out.baseAddress?.initialize(from: source, count: size.rgbaByteCount)
            if interlaced, !complete { Self.fillRowsOfLaterPasses(out, size: size, completedPasses: passes) }
        }
        shownRows = rows
        shownPasses = passes
        shownFinal = complete
        var pixels = straight.converted(to: options.alphaMode)
        let target = options.targetSize(for: size, orientation: orientation)
        if target != size { pixels = Resampler.resample(pixels, to: target) }
        let hasAlpha = progress.header.color_type & 4 != 0 || progress.header.has_trns != 0
        return Image(
            pixels: pixels, scale: options.scaleFactor, orientation: orientation, format: .png, hasAlpha: hasAlpha,
            originalPixelSize: size, colorProfile: colorProfile)
    }
}
