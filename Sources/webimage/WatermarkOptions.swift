import ArgumentParser
import Foundation
import WebImageCodecs

/// `--watermark FILE` and `--watermark-options` of `fetch` and `convert`: `serve`'s `wm:` with a
/// file for the image, drawn last (after `--resize` and the edits, as the service draws it), by
/// the core's ``Watermark`` and `CompositeTransformer`, so the pixels are the service's.
struct WatermarkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Draw the image in FILE over the result, last (as serve's wm: with --watermark).", valueName: "FILE"))
    var watermark: String?

    @Option(
        help: ArgumentHelp(
            "How --watermark is drawn, in serve's wm: grammar: opacity 0–1, position (ce default, no, so, ea, we, noea, nowe, soea, sowe, re to repeat), x and y offsets in pixels, scale of the result's width (0: its own size). Default 1 (opaque, centred).",
            valueName: "OPACITY[:POSITION[:X:Y[:SCALE]]]"))
    var watermarkOptions: String?

    func validate() throws {
        if watermark == nil, watermarkOptions != nil { throw ValidationError("--watermark-options only applies with --watermark FILE") }
        _ = try transformer()
    }

    /// `wm:` and its arguments as a URL writes them (nil without `--watermark`).
    var segment: String? { watermark.map { _ in "wm:" + (watermarkOptions ?? "1") } }

    /// The parameters (nil without `--watermark`, or at opacity 0); a bad value is a usage error.
    func parameters() throws -> Watermark? {
        guard watermark != nil else { return nil }
        var reader = OptionArguments(option: "--watermark-options", value: watermarkOptions ?? "1")
        do {
            return try Watermark(arguments: &reader)
        } catch let error as WebImageError {
            throw ValidationError(error.message)
        }
    }

    /// The watermark file's bytes (nil without `--watermark`); an unreadable file is a usage error.
    func data() throws -> Data? {
        guard let watermark else { return nil }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: watermark))
        } catch {
            throw ValidationError("--watermark \(watermark) cannot be read: \(error.localizedDescription)")
        }
    }

    /// The compositing step (nil without `--watermark` or at opacity 0), the file decoded; a file
    /// that is not an image is a usage error.
    func transformer() throws -> (any ImageTransforming)? {
        guard let parameters = try parameters(), let data = try data() else { return nil }
        do {
            var options = ImageDecodingOptions(firstFrameOnly: true)
            options.maxPixelCount = OptionLimits.maxPixelCount
            return parameters.transformer(overlay: try ImageCodersManager.standard().decode(data, options: options))
        } catch {
            throw ValidationError("--watermark \(watermark ?? ""): not a readable image (\((error as? WebImageError)?.message ?? "\(error)"))")
        }
    }
}
