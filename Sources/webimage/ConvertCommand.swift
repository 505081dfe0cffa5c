import ArgumentParser
import Foundation
import WebImageCodecs

/// `webimage convert IN OUT`: decode, optionally resize, encode in OUT's format.
struct ConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract:
            "Decode an image and encode it in the format of OUT's extension (jpg, png, gif, webp, jxl, tif, avif, heic).",
        discussion:
            "Animated input gives animated output when the format allows it (GIF, APNG, WebP, AVIF), unless --first-frame.")

    @Argument(help: "The input image file.")
    var input: String

    @Argument(help: "The output file; its extension chooses the format.")
    var output: String

    @OptionGroup var transform: TransformOptions

    @Flag(name: .customLong("first-frame"), help: "Keep only the first frame of an animation.")
    var firstFrame = false

    @Option(
        name: .customLong("max-animation-pixels"),
        help: ArgumentHelp(
            "Refuse animations whose frames hold more than N pixels in all (frames × canvas; default 1000000000).",
            valueName: "N"))
    var maxAnimationPixels: Int?

    func validate() throws {
        if let maxAnimationPixels, maxAnimationPixels <= 0 {
            throw ValidationError("--max-animation-pixels must be a positive number of pixels")
        }
        let ext = URL(fileURLWithPath: output).pathExtension
        guard let format = ImageFormat(fileExtension: ext), ImageCodersManager.standard().canEncode(format) else {
            throw ValidationError(
                "cannot tell an output format WebImage writes from '\(output)' "
                    + "(use .jpg, .png, .gif, .webp, .jxl, .tif, .avif or .heic)")
        }
    }

    func run() async throws {
        let format = ImageFormat(fileExtension: URL(fileURLWithPath: output).pathExtension) ?? .png
        let data: Data
        do {
            data = try LocalFile.load(input)
        } catch {
            printError("webimage: error: \(failureMessage(error))")
            throw ExitCode(1)
        }
        let encoded: Data
        let image: Image
        do {
            let coders = ImageCodersManager.standard()
            var decoding = transform.decodingOptions(firstFrameOnly: firstFrame)
            if let maxAnimationPixels { decoding.maxAnimationPixelCount = maxAnimationPixels }
            var decoded = try coders.decode(data, options: decoding)
            if let transformer = transform.transformer { decoded = try transformer.transform(decoded) }
            var options = transform.encodingOptions
            options.firstFrameOnly = firstFrame
            encoded = try coders.encode(decoded, as: format, options: options)
            image = decoded
        } catch {
            printError("webimage: error: \(input): \(failureMessage(error))")
            throw ExitCode(1)
        }
        do {
            try LocalFile.save(encoded, to: output)
        } catch {
            printError("webimage: error: \(failureMessage(error))")
            throw ExitCode(1)
        }
        let frames = firstFrame ? 1 : (image.animation?.frameCount ?? 1)
        Terminal.out("\(output): \(format) \(image.pixelSize), \(frames) frame(s), \(encoded.count) bytes\n")
    }
}
