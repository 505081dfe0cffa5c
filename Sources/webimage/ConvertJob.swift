import Foundation
import WebImageCodecs
import WebImageServer

/// What `convert` does to every file: decode, transform, encode.
struct ConvertSettings: Sendable {
    var coders: ImageCodersManager
    var decoding: ImageDecodingOptions
    var transformer: (any ImageTransforming)?
    var encoding: ImageEncodingOptions
    /// `--format-quality`: the quality of each output format, over `encoding`'s.
    var formatQuality: [ImageFormat: Int] = [:]
    /// `--max-bytes`: the budget of lossy outputs (as serve's `mb:`).
    var maxBytes: Int?
    var firstFrameOnly: Bool
    /// `--preset`: the service's rendering in place of the decode, transform and encode above.
    var preset: PresetRendering?
}

extension ImageEncodingOptions {
    /// These options with `quality` (percent) when given.
    func with(quality: Int?) -> ImageEncodingOptions {
        guard let quality else { return self }
        var options = self
        options.quality = Double(quality) / 100
        return options
    }
}

/// One converted file, before it is written.
struct ConvertedFile: Sendable {
    var data: Data
    var format: ImageFormat
    var size: PixelSize
    var frames: Int
}

/// Converts one file; the pixels it is done with go back to the storage pool, so that the next
/// file of a batch decodes and resizes into warm memory.
enum ConvertJob {
    /// A failure and whether its message should be prefixed with the input (decode, transform and
    /// encode errors are; file errors already name their path).
    struct Failure: Error {
        var error: any Error
        var namesInput: Bool
    }

    /// Reads `input`, decodes, transforms and encodes it in the format `format(decodedFormat)` picks;
    /// with a preset, renders it as the service does in `presetFormat` (nil: the preset's or the source's).
    static func convert(
        _ input: String, settings: ConvertSettings, presetFormat: ImageFormat?, format: (ImageFormat) -> ImageFormat
    ) async throws -> ConvertedFile {
        let data: Data
        do {
            data = try LocalFile.load(input)
        } catch {
            throw Failure(error: error, namesInput: false)
        }
        if let preset = settings.preset {
            do {
                let (encoded, target) = try await preset.render(data, format: presetFormat)
                let header = try settings.coders.readHeader(encoded)
                return ConvertedFile(data: encoded, format: target, size: header.pixelSize, frames: header.frameCount)
            } catch {
                throw Failure(error: error, namesInput: true)
            }
        }
        do {
            let coders = settings.coders
            let decoded = try coders.decode(data, options: settings.decoding)
            let image = try settings.transformer?.transform(decoded) ?? decoded
            let target = format(decoded.format)
            // An animation streams: each frame's storage goes back to the pool once encoded.
            let encoded = try coders.encode(image.recyclingFrames, as: target, options: settings.encoding.with(quality: settings.formatQuality[target]).budgeted(maxBytes: settings.maxBytes, for: target))
            let converted = ConvertedFile(
                data: encoded, format: target, size: image.pixelSize,
                frames: settings.firstFrameOnly ? 1 : (image.animation?.frameCount ?? 1))
            // Done with both bitmaps (the pool keeps one copy of storage they share).
            if decoded.animation == nil { PixelStoragePool.shared.recycle(decoded.pixels) }
            if image.animation == nil, image !== decoded { PixelStoragePool.shared.recycle(image.pixels) }
            return converted
        } catch {
            throw Failure(error: error, namesInput: true)
        }
    }
}

/// One `convert --json` line: `finished` (input, file, format, size, frames, bytes, time) or
/// `failed` (input, error code and message).
struct ConvertReport: Sendable, Encodable {
    var event: String
    var input: String
    var file: String?
    var format: String?
    var width: Int?
    var height: Int?
    var frames: Int?
    var bytes: Int?
    var milliseconds: Int?
    var error: ItemReport.ErrorReport?

    static func finished(input: String, file: String, _ converted: ConvertedFile, elapsed: Duration) -> ConvertReport {
        ConvertReport(
            event: "finished", input: input, file: file, format: converted.format.rawValue,
            width: converted.size.width, height: converted.size.height, frames: converted.frames,
            bytes: converted.data.count, milliseconds: wholeMilliseconds(elapsed))
    }

    static func failed(input: String, error: any Error, elapsed: Duration) -> ConvertReport {
        let typed = error as? WebImageError
        return ConvertReport(
            event: "failed", input: input, milliseconds: wholeMilliseconds(elapsed),
            error: ItemReport.ErrorReport(
                code: typed?.code.rawValue ?? "error", message: typed?.message ?? String(describing: error)))
    }

    /// `IN -> FILE  webp 256×171  1 frame(s)  12.1 KB  38 ms`.
    var line: String {
        guard let file, let format, let width, let height else { return input }
        var parts = ["\(input) -> \(file)", "\(format) \(width)×\(height)", "\(frames ?? 1) frame(s)"]
        if let bytes { parts.append(formatBytes(bytes)) }
        if let milliseconds { parts.append("\(milliseconds) ms") }
        return parts.joined(separator: "  ")
    }
}
