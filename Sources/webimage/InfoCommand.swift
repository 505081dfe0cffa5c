import ArgumentParser
import Foundation
import WebImageCodecs

/// `webimage info FILE|URL`: what an image holds.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show an image's format, size, frames, loop count, durations, orientation, alpha and memory cost.",
        discussion: "A URL (http, https, file, data) is loaded through the cache, as fetch does.")

    @Argument(help: "An image file or URL.")
    var file: String

    @Flag(help: "Print one JSON object.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        do {
            let (data, image) = try await load()
            let info = ImageInfo(file: file, fileSize: data.count, image: image)
            Terminal.out((json ? info.json : info.text) + "\n")
        } catch {
            printError("webimage: error: \(file): \(failureMessage(error))")
            throw ExitCode(1)
        }
    }

    /// The bytes and the decoded image of the file, or of the URL through the cache.
    private func load() async throws -> (Data, Image) {
        guard let url = loadableURL(file) else {
            let data = try LocalFile.load(file)
            return (data, try ImageCodersManager.standard().decode(data))
        }
        let session = try await CommandSession(global: global, concurrency: 1, cache: .optional)
        do {
            let response = try await session.manager.image(for: ImageRequest(url: url, options: [.queryMemoryData, .waitStoreCache]))
            await session.shutdown()
            guard let data = response.data else { throw WebImageError(.badImageData, "no bytes for \(url)") }
            return (data, response.image)
        } catch {
            await session.shutdown()
            throw error
        }
    }
}

/// The facts `info` reports.
struct ImageInfo: Encodable {
    var file: String
    var format: String
    var width: Int
    var height: Int
    var frameCount: Int
    var loopCount: Int?
    var durations: [Double]?
    var orientation: Int
    var hasAlpha: Bool
    var fileSize: Int
    var memoryCost: Int

    init(file: String, fileSize: Int, image: Image) {
        self.file = file
        format = image.format.rawValue
        width = image.pixelSize.width
        height = image.pixelSize.height
        frameCount = image.animation?.frameCount ?? 1
        loopCount = image.animation?.loopCount
        durations = image.animation.map { animation in (0..<animation.frameCount).map { animation.duration(at: $0) } }
        orientation = image.orientation.rawValue
        hasAlpha = image.hasAlpha
        self.fileSize = fileSize
        memoryCost = image.memoryCost
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    var text: String {
        var lines = [
            "file:         \(file)",
            "format:       \(format)",
            "dimensions:   \(width)×\(height)",
            "frames:       \(frameCount)",
        ]
        if let loopCount { lines.append("loop count:   \(loopCount == 0 ? "forever" : String(loopCount))") }
        if let durations, let total = Optional(durations.reduce(0, +)) {
            let shown = durations.prefix(8).map { String(format: "%.0f ms", $0 * 1000) }.joined(separator: ", ")
            lines.append("durations:    \(shown)\(durations.count > 8 ? ", …" : "") (total \(String(format: "%.2f", total)) s)")
        }
        lines += [
            "orientation:  \(orientation)",
            "alpha:        \(hasAlpha ? "yes" : "no")",
            "file size:    \(fileSize) bytes",
            "memory cost:  \(memoryCost) bytes decoded",
        ]
        return lines.joined(separator: "\n")
    }
}
