import ArgumentParser
import Foundation
import WebImageCodecs
import WebImageServer

/// `--preset` and `--presets-file` of `fetch` and `convert`: `serve`'s presets, rendered by the
/// service's own renderer (`ImageRenderer`), so that a file made with `--preset NAME` holds the
/// bytes the service answers for `pr:NAME` in the same format.
struct PresetOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Render as serve's pr:NAME does (repeat to apply several in order; a preset named default applies first), or define one with NAME=OPTIONS as serve --preset does.",
            valueName: "NAME|NAME=OPTIONS"))
    var preset: [String] = []

    @Option(help: ArgumentHelp("Presets, one NAME=OPTIONS a line (# comments), as serve --presets-file.", valueName: "FILE"))
    var presetsFile: String?

    /// The presets applied, in order (the `--preset` values without `=`).
    var names: [String] { preset.filter { !$0.contains("=") } }

    /// The presets defined: `--presets-file`'s, with `--preset NAME=OPTIONS` over them, checked.
    func presets() throws -> ProcessingPresets {
        var configuration = ImageServerConfiguration()
        configuration.presetsFile = presetsFile.map { URL(fileURLWithPath: $0) }
        for definition in preset where definition.contains("=") {
            do {
                try configuration.presets.define(definition)
            } catch let error as WebImageError {
                throw ValidationError("--preset: \(error.message)")
            }
        }
        do {
            return try configuration.loadPresets()
        } catch let error as WebImageError {
            throw ValidationError(error.message)
        }
    }

    /// Checks the presets, and that they are not mixed with the transform options.
    func check(against transform: TransformOptions) throws {
        guard !names.isEmpty else {
            if !preset.isEmpty || presetsFile != nil {
                throw ValidationError("--preset NAME=OPTIONS and --presets-file define presets: name the one to apply with --preset NAME")
            }
            return
        }
        if try transform.thumbnail != nil || transform.pipeline(arguments: Array(CommandLine.arguments.dropFirst()), watermarked: false) != nil {
            throw ValidationError("--preset cannot be combined with --resize, --thumbnail or the transform options: the preset says what to do (--watermark excepted)")
        }
        _ = try rendering(transform: transform)
    }

    /// The rendering `--preset NAME…` asks for (nil without one), with `transform`'s `--quality`
    /// (default 80, as serve's), `--format-quality`, `--max-pixels`, `--colour` and `--metadata` as
    /// serve's settings, `--dpr` as a `dpr:` after the presets, and `--watermark` and `--max-bytes`
    /// as `wm:` and `mb:` after them.
    func rendering(transform: TransformOptions) throws -> PresetRendering? {
        guard !names.isEmpty else { return nil }
        var limits = ImageServerLimits()
        if let maxPixels = transform.maxPixels { limits.maxSourcePixels = maxPixels }
        let options: ProcessingOptions
        do {
            var segments: [Substring] = ["pr:" + names.joined(separator: ":")]
            if let dpr = transform.dpr { segments.append("dpr:\(dpr)") }
            if let watermark = transform.watermark.segment { segments.append(Substring(watermark)) }
            if let maxBytes = transform.maxBytes { segments.append("mb:\(maxBytes)") }
            options = try ProcessingOptions(
                segments: segments,
                maxDimension: limits.maxResultDimension,
                colorPolicy: transform.colour.policy, metadataPolicy: transform.metadata.policy, presets: try presets())
        } catch let error as WebImageError {
            throw ValidationError("--preset: \(error.message)")
        }
        return PresetRendering(
            renderer: ImageRenderer(
                coders: .tool(), limits: limits, defaultQuality: transform.quality ?? 80, formatQuality: try transform.formatQualities()),
            options: options, watermark: try transform.watermark.data())
    }
}

/// Presets' options and the service's renderer, shared by every file of a run.
struct PresetRendering: Sendable {
    var renderer: ImageRenderer
    var options: ProcessingOptions
    /// `--watermark`'s bytes, drawn where the options' `wm:` says.
    var watermark: Data?

    /// `data` rendered; `format` (OUT's extension, `--format`) wins over the preset's `f:`, as a
    /// URL's `@ext` does; without either the source's format is kept.
    func render(_ data: Data, format: ImageFormat?) async throws -> (data: Data, format: ImageFormat) {
        var options = options
        if let format { options.format = .explicit(format) }
        return try await renderer.render(data, options: options, watermark: watermark)
    }
}
