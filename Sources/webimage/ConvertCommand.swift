import ArgumentParser
import Foundation
import WebImageCodecs

/// `webimage convert IN OUT` (one file) or `webimage convert IN... -o DIR` (a batch): decode,
/// optionally transform, encode.
struct ConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract:
            "Convert an image to the format of OUT's extension, or many images into a directory (-o DIR).",
        discussion: """
            One file: webimage convert IN OUT (jpg, png, gif, webp, jxl, tif, avif, heic; ppm, pgm, pam or pnm \
            for the decoded pixels alone, as djpeg writes them). Many: webimage \
            convert IN... -o DIR [--format F] [--jobs N]: one process, N files at once (default: the \
            number of cores); each output is named after its input with the format's extension, made \
            unique; without --format each file keeps its format (PNG for formats WebImage does not \
            write). A failed file is reported and the others go on; the exit status is 1 if any \
            failed. Animated input gives animated output when the format allows it (GIF, APNG, WebP, \
            AVIF), unless --first-frame.
            """)

    @Argument(help: ArgumentHelp("IN OUT, or the input files with -o DIR.", valueName: "files"))
    var files: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Convert every input into this directory (created if missing).", valueName: "DIR"))
    var output: String?

    @Option(help: "With -o: the format of every output (default: each input's own).")
    var format: OutputFormatArgument?

    @Option(help: ArgumentHelp("With -o: files converted at once, 1–256 (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Flag(help: "One JSON object per file (finished or failed), then a summary with -o.")
    var json = false

    @OptionGroup var transform: TransformOptions

    @OptionGroup var presets: PresetOptions

    @Flag(name: .customLong("first-frame"), help: "Keep only the first frame of an animation.")
    var firstFrame = false

    @Option(
        name: .customLong("max-animation-pixels"),
        help: ArgumentHelp(
            "Refuse animations whose frames hold more than N pixels in all (frames × canvas; default 1000000000).",
            valueName: "N"))
    var maxAnimationPixels: Int?

    func validate() throws {
        try presets.check(against: transform)
        if let maxAnimationPixels, maxAnimationPixels <= 0 {
            throw ValidationError("--max-animation-pixels must be a positive number of pixels")
        }
        guard output != nil else {
            if format != nil { throw ValidationError("--format only applies with -o DIR (one file takes OUT's extension)") }
            if jobs != nil { throw ValidationError("--jobs only applies with -o DIR") }
            guard files.count == 2 else {
                throw ValidationError("give IN OUT, or any number of inputs with -o DIR (got \(files.count) files)")
            }
            _ = try Self.outputFormat(of: files[1])
            return
        }
        guard !files.isEmpty else { throw ValidationError("give at least one input file with -o DIR") }
        if let jobs, !OptionLimits.concurrency.contains(jobs) {
            throw ValidationError(
                "--jobs must be between \(OptionLimits.concurrency.lowerBound) and \(OptionLimits.concurrency.upperBound) (got \(jobs))")
        }
        if let format, !ImageCodersManager.tool().canEncode(format.format) {
            throw ValidationError("WebImage cannot write \(format.rawValue) on this system")
        }
    }

    /// The format OUT's extension names, when WebImage writes it.
    static func outputFormat(of path: String) throws -> ImageFormat {
        let ext = URL(fileURLWithPath: path).pathExtension
        guard let format = ImageFormat(fileExtension: ext), ImageCodersManager.tool().canEncode(format) else {
            throw ValidationError(
                "cannot tell an output format WebImage writes from '\(path)' "
                    + "(use .jpg, .png, .gif, .webp, .jxl, .tif, .avif, .heic, .ppm, .pgm, .pam or .pnm)")
        }
        return format
    }

    /// What every file goes through.
    var settings: ConvertSettings {
        var decoding = transform.decodingOptions(firstFrameOnly: firstFrame)
        if let maxAnimationPixels { decoding.maxAnimationPixelCount = maxAnimationPixels }
        var encoding = transform.encodingOptions
        encoding.firstFrameOnly = firstFrame
        return ConvertSettings(
            coders: ImageCodersManager.tool(), decoding: decoding, transformer: transform.transformer, encoding: encoding, formatQuality: (try? transform.formatQualities()) ?? [:],
            maxBytes: transform.maxBytes, firstFrameOnly: firstFrame,
            preset: try? presets.rendering(transform: transform))
    }

    func run() async throws {
        guard let output else { return try await runOne(input: files[0], output: files[1]) }
        let batch = ConvertBatch(
            inputs: files, directory: output, format: format?.format, settings: settings,
            jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, json: json)
        try await batch.run()
    }

    /// The single-file form: IN OUT.
    private func runOne(input: String, output: String) async throws {
        let format = (try? Self.outputFormat(of: output)) ?? .png
        let start = ContinuousClock.now
        do {
            let converted = try await ConvertJob.convert(input, settings: settings, presetFormat: format) { _ in format }
            do {
                try LocalFile.save(converted.data, to: output)
            } catch {
                throw ConvertJob.Failure(error: error, namesInput: false)
            }
            if json {
                Terminal.out(jsonLine(ConvertReport.finished(input: input, file: output, converted, elapsed: .now - start)))
            } else {
                Terminal.out("\(output): \(converted.format) \(converted.size), \(converted.frames) frame(s), \(converted.data.count) bytes\n")
            }
        } catch let failure as ConvertJob.Failure {
            printError("webimage: error: " + (failure.namesInput ? "\(input): " : "") + failureMessage(failure.error))
            if json { Terminal.out(jsonLine(ConvertReport.failed(input: input, error: failure.error, elapsed: .now - start))) }
            throw ExitCode(1)
        }
    }
}
