import ArgumentParser
import Foundation
import WebImageCodecs
import WebImageServer

/// `webimage info FILE|URL`: what an image holds.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show an image's format, size, frames, loop count, durations, orientation, alpha and memory cost.",
        discussion: """
            Reads the header only (frames are counted without decoding them), so a file declaring \
            a huge image costs no memory. A URL (http, https, file, data) is loaded through the \
            cache, as fetch does. With --json a failure prints {"error":{"code":…,"message":…},"source":…}.
            """)

    @Argument(help: "An image file or URL.")
    var file: String

    @Flag(help: "Print one JSON object.")
    var json = false

    @Flag(help: "Add a ThumbHash placeholder (base64), from a thumbnail decode within 100×100.")
    var thumbhash = false

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        do {
            let (data, header) = try await load()
            var info = ImageInfo(file: file, fileSize: data.count, header: header)
            if thumbhash {
                info.thumbHash = Data(try ThumbHash.encode(imageData: data, coders: .tool())).base64EncodedString()
            }
            Terminal.out(json ? jsonLine(info) : info.text + "\n")
        } catch {
            printError("webimage: error: \(file): \(failureMessage(error))")
            if json { Terminal.out(jsonLine(InfoFailure(source: file, error: error))) }
            throw ExitCode(1)
        }
    }

    /// The bytes and the header of the file (read without decoding pixels), or of the URL's
    /// bytes loaded through the cache.
    private func load() async throws -> (Data, ImageHeader) {
        let coders = ImageCodersManager.tool()
        guard let url = loadableURL(file) else {
            let data = try LocalFile.load(file)
            return (data, try coders.readHeader(data))
        }
        let session = try await CommandSession(global: global, concurrency: 1, cache: .optional)
        do {
            let response = try await session.manager.image(for: ImageRequest(url: url, options: [.queryMemoryData, .waitStoreCache]))
            await session.shutdown()
            guard let data = response.data else { throw WebImageError(.badImageData, "no bytes for \(url)") }
            return (data, try coders.readHeader(data))
        } catch {
            await session.shutdown()
            throw error
        }
    }
}

/// What `info --json` prints when it fails: `{"error":{"code":…,"message":…},"source":…}`.
struct InfoFailure: Encodable {
    struct Detail: Encodable {
        var code: String
        var message: String
    }

    var error: Detail
    var source: String

    init(source: String, error: any Error) {
        self.source = source
        if let typed = error as? WebImageError {
            self.error = Detail(code: typed.code.rawValue, message: typed.message)
        } else {
            self.error = Detail(code: WebImageError.Code.decodingFailed.rawValue, message: String(describing: error))
        }
    }
}

extension ImageInfo {
    var text: String {
        var lines = [
            "file:         \(file)",
            "format:       \(format)",
            "dimensions:   \(width)×\(height)",
            "frames:       \(frameCount)",
        ]
        if let loopCount { lines.append("loop count:   \(loopCount == 0 ? "forever" : String(loopCount))") }
        if let durations {
            let total = String(format: "%.2f", durations.reduce(0, +))
            lines.append("durations:    \(Self.runs(durations)) (played; total \(total) s)")
        }
        if let storedDurations {
            lines.append("stored:       \(Self.runs(storedDurations)) (as the file stores them)")
        }
        lines += [
            "orientation:  \(orientation)",
            "alpha:        \(hasAlpha ? "yes" : "no")",
            "colour:       \(colorProfile?.text ?? "sRGB (no profile)")",
            "metadata:     \(metadata?.text ?? "none")",
            "file size:    \(fileSize) bytes",
            "memory cost:  \(memoryCost) bytes decoded",
        ]
        if let thumbHash { lines.append("thumbhash:    \(thumbHash)") }
        return lines.joined(separator: "\n")
    }

    /// Every frame's duration in milliseconds, repeats folded: `100 ms ×3, 20 ms`.
    static func runs(_ seconds: [Double]) -> String {
        var parts: [String] = []
        var index = 0
        while index < seconds.count {
            var end = index + 1
            while end < seconds.count && seconds[end] == seconds[index] { end += 1 }
            let count = end - index
            parts.append(milliseconds(seconds[index]) + (count > 1 ? " ×\(count)" : ""))
            index = end
        }
        return parts.joined(separator: ", ")
    }

    /// `20 ms`, or `333.33 ms` for a fraction of a millisecond.
    static func milliseconds(_ seconds: Double) -> String {
        let ms = seconds * 1000
        if abs(ms - ms.rounded()) < 1e-6 { return String(format: "%.0f ms", ms) }
        return String(format: "%.2f ms", ms)
    }
}

extension ColorProfileInfo {
    /// `Display P3 (RGB ICC profile, 536 bytes; converted to sRGB when decoded)`.
    var text: String {
        let effect = isSRGB ? "sRGB already" : "converted to sRGB when decoded"
        return "\(name ?? "unnamed") (\(space.uppercased()) ICC profile, \(bytes) bytes; \(effect))"
    }
}
