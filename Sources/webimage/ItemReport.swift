import Foundation
import WebImageKit

/// What happened to one URL, as every display reports it.
struct ItemReport: Sendable, Encodable {
    /// `finished` or `failed`.
    var event: String
    var url: String
    /// memory, disk, network, file or data.
    var source: String?
    /// Bytes written (fetch) or held in the cache (prefetch), when known.
    var bytes: Int?
    var format: String?
    var width: Int?
    var height: Int?
    var milliseconds: Int?
    /// The file written, for `fetch`.
    var file: String?
    /// The fallback URL that answered, when it was not `url` (`fetch --fallback`).
    var sourceURL: String?
    /// The typed error's code and message, for failures.
    var error: ErrorReport?

    struct ErrorReport: Sendable, Encodable {
        var code: String
        var message: String
    }

    var succeeded: Bool { error == nil }

    static func finished(
        url: String, response: ImageResponse, bytes: Int?, format: ImageFormat, elapsed: Duration, file: String?
    ) -> ItemReport {
        ItemReport(
            event: "finished", url: url, source: sourceName(cacheType: response.cacheType, url: response.url), bytes: bytes, format: format.rawValue,
            width: response.image.pixelSize.width, height: response.image.pixelSize.height,
            milliseconds: wholeMilliseconds(elapsed), file: file,
            sourceURL: response.sourceURL == response.url ? nil : response.sourceURL.absoluteString)
    }

    static func failed(url: String, error: any Error, elapsed: Duration?) -> ItemReport {
        let typed = error as? WebImageError
        return ItemReport(
            event: "failed", url: url, milliseconds: elapsed.map(wholeMilliseconds),
            error: ErrorReport(code: typed?.code.rawValue ?? "error", message: typed?.message ?? String(describing: error)))
    }

    static func skipped(entry: String) -> ItemReport {
        ItemReport(event: "skipped", url: entry)
    }

    /// A success for people: `network  24.1 KB  png 640×480  38 ms  URL -> FILE`.
    var details: String {
        var parts = [(source ?? "").padding(toLength: 7, withPad: " ", startingAt: 0)]
        if let bytes { parts.append(formatBytes(bytes).leftPadded(to: 8)) }
        if let format, let width, let height { parts.append("\(format) \(width)×\(height)") }
        if let milliseconds { parts.append("\(milliseconds) ms") }
        let asked = sourceURL.map { "\(url) (from \($0))" } ?? url
        parts.append(file.map { "\(asked) -> \($0)" } ?? asked)
        return parts.joined(separator: "  ")
    }

    /// `webimage: error: URL: code: message`.
    var errorLine: String { "webimage: error: \(url): \(errorText)" }

    /// `webimage: warning: skipped 'ENTRY': not a URL`.
    var warningLine: String { "webimage: warning: skipped '\(url)': not a URL" }

    /// `code: message` of a failure.
    var errorText: String {
        guard let error else { return "" }
        return "\(error.code): \(error.message)"
    }
}

/// The totals a run ends with.
struct RunSummary: Sendable, Encodable {
    var event = "summary"
    var succeeded: Int
    var failed: Int
    var skipped: Int
    var total: Int
    var milliseconds: Int
    var cancelled: Bool

    var line: String {
        var text = "\(succeeded) of \(total) succeeded"
        if failed > 0 { text += ", \(failed) failed" }
        if skipped > 0 { text += ", \(skipped) skipped" }
        text += " in " + String(format: "%.2f s", Double(milliseconds) / 1000)
        if cancelled { text += " (cancelled)" }
        return text
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
