public import Foundation

/// Loads `data:` URLs (RFC 2397), base64 (`data:image/png;base64,…`) or percent-encoded
/// (`data:image/svg+xml,%3Csvg…`).
///
/// The media type becomes the response's `Content-Type` (default `text/plain;charset=US-ASCII`);
/// a malformed URL fails with ``WebImageError/Code/invalidURL``. The request's decryptor is
/// applied to the payload, as the HTTP loader does.
///
/// ```swift
/// let url = URL(string: "data:image/gif;base64,R0lGODlhAQABAAAAACw=")!
/// let bytes = try await DataURLImageLoader().load(ImageLoad.Request(url: url)).result().data
/// ```
public struct DataURLImageLoader: ImageLoading {
    /// A data: URL loader.
    public init() {}

    /// `"data"`.
    public var name: String { "data" }

    /// Whether `url`'s scheme is `data`.
    public func canLoad(_ url: URL) -> Bool { url.scheme?.lowercased() == "data" }

    public func load(_ request: ImageLoad.Request) -> ImageLoad.Task {
        .run { continuation in
            let start = ContinuousClock.now
            let (mediaType, payload) = try Self.decode(request.url)
            let response = ImageLoad.Response(
                url: request.url, headers: ["Content-Type": mediaType, "Content-Length": String(payload.count)])
            continuation.yield(.response(response))
            continuation.yield(.progress(ImageLoad.Progress(
                receivedBytes: payload.count, expectedBytes: payload.count,
                partialData: request.reportsPartialData && request.decryptor == nil ? payload : nil)))
            let data = try request.decryptor.map { try $0.apply(to: payload, response: response) } ?? payload
            let elapsed = ContinuousClock.now - start
            return ImageLoad.Result(
                data: data, response: response,
                metrics: ImageLoad.Metrics(receivedBytes: payload.count, timeToFirstByte: elapsed, totalDuration: elapsed))
        }
    }

    /// The media type and bytes of a data: URL.
    public static func decode(_ url: URL) throws -> (mediaType: String, data: Data) {
        let text = url.absoluteString
        guard text.lowercased().hasPrefix("data:"), let comma = text.firstIndex(of: ",") else {
            throw WebImageError(.invalidURL, "not a data: URL: \(text.prefix(64))")
        }
        var meta = String(text[text.index(text.startIndex, offsetBy: 5)..<comma])
        let payload = text[text.index(after: comma)...]
        let isBase64 = meta.lowercased().hasSuffix(";base64")
        if isBase64 { meta.removeLast(7) }
        let mediaType = meta.isEmpty ? "text/plain;charset=US-ASCII" : (meta.hasPrefix(";") ? "text/plain" + meta : meta)
        guard let bytes = percentDecoded(payload.utf8) else {
            throw WebImageError(.invalidURL, "malformed percent-encoding in a data: URL")
        }
        if isBase64 {
            let compact = Data(bytes.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) })
            guard let data = Data(base64Encoded: compact) else {
                throw WebImageError(.invalidURL, "malformed base64 in a data: URL")
            }
            return (mediaType, data)
        }
        return (mediaType, Data(bytes))
    }

    private static func percentDecoded(_ input: String.UTF8View.SubSequence) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var iterator = input.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else {
                return nil
            }
            output.append(high << 4 | low)
        }
        return output
    }
}
