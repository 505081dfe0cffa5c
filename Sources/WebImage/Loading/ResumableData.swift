public import Foundation

/// The bytes of an interrupted download that a later load of the same URL can resume (Nuke's
/// resumable data): kept only when the server said it serves ranges (`Accept-Ranges: bytes`, or a
/// `206`) and named a validator for `If-Range` (a strong ETag, else `Last-Modified`).
///
/// ```swift
/// if let partial = ResumableData(data: received, response: head) { store.keep(partial, for: url) }
/// // later: request.headers = request.headers.merging(partial.resumeHeaders)
/// ```
public struct ResumableData: Sendable {
    /// The bytes received so far, from the start of the body.
    public var data: Data
    /// The `If-Range` value: the strong ETag, else the `Last-Modified` date.
    public var validator: String

    /// The resumable part of an interrupted response, or nil when it cannot be resumed (nothing
    /// received, a status other than 200 or 206, no range support, no usable validator).
    public init?(data: Data, response: ImageLoad.Response) {
        guard !data.isEmpty, let status = response.statusCode, status == 200 || status == 206 else { return nil }
        let ranges = response.headers["Accept-Ranges"]?.lowercased().contains("bytes") == true
        guard ranges || status == 206 else { return nil }
        let http = response.cacheMetadata
        // A weak ETag cannot be used with If-Range (RFC 9110 §13.1.5).
        if let etag = http.etag, !etag.hasPrefix("W/") {
            validator = etag
        } else if let lastModified = http.lastModified {
            validator = lastModified
        } else {
            return nil
        }
        self.data = data
    }

    /// `Range: bytes=<count>-` and `If-Range: <validator>`: the rest of the body if it did not change.
    public var resumeHeaders: ImageLoad.Headers {
        ["Range": "bytes=\(data.count)-", "If-Range": validator]
    }

    /// Whether a `206` answer to ``resumeHeaders`` continues these bytes exactly (its
    /// `Content-Range` is `bytes <count>-<last>/<total or *>`; a 206 for another range does not),
    /// and the whole length it declares.
    public func continuation(by response: ImageLoad.Response) -> (matches: Bool, total: Int?) {
        guard response.statusCode == 206, let value = response.headers["Content-Range"]?.trimmingCharacters(in: .whitespaces),
            value.lowercased().hasPrefix("bytes ")
        else { return (false, nil) }
        let spec = value.dropFirst("bytes ".count)
        let parts = spec.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let start = parts[0].split(separator: "-").first.flatMap({ Int($0) }), start == data.count
        else { return (false, nil) }
        return (true, Int(parts[1]))
    }

    /// `response`, a matching `206`, as the whole response it continues: status 200, the whole
    /// length, no `Content-Range`; so callers see one response whichever way the bytes came.
    public func wholeResponse(from response: ImageLoad.Response, total: Int?) -> ImageLoad.Response {
        var whole = response
        whole.statusCode = 200
        whole.headers["Content-Range"] = nil
        whole.headers["Content-Length"] = total.map(String.init)
        whole.headers["Accept-Ranges"] = "bytes"
        return whole
    }
}

/// Resumable data by URL within a byte budget, least recently kept first out (the core's
/// ``CostLRU``). A load takes its URL's entry out: an entry is used once.
public final class ResumableDataStore: Sendable {
    private let entries: CostLRU<String, ResumableData>

    /// A store keeping at most `byteBudget` bytes in all.
    public init(byteBudget: Int) {
        entries = CostLRU(costLimit: max(1, byteBudget), entryCostLimit: max(1, byteBudget))
    }

    /// Keeps `partial` for `url`, replacing what was kept for it; too large for the budget: nothing.
    public func keep(_ partial: ResumableData, for url: URL) {
        _ = entries.set(partial, forKey: url.absoluteString, cost: partial.data.count)
    }

    /// Takes out what is kept for `url`.
    public func take(for url: URL) -> ResumableData? {
        entries.removeValue(forKey: url.absoluteString)
    }

    /// The bytes kept now.
    public var totalBytes: Int { entries.totalCost }
}
