import Foundation

/// One encoded result with what its HTTP answer needs.
struct RenderedImage: Sendable {
    /// The encoded bytes.
    var data: Data
    /// Its media type.
    var contentType: String
    /// The strong validator, quoted.
    var etag: String
    /// The source's `Last-Modified`, when it had one.
    var lastModified: String?
    /// Whether the format was chosen by `Accept` (the answer then says `Vary: Accept`).
    var negotiated: Bool
    /// When its source stops being fresh (the origin's `Cache-Control`/`Expires`); nil: never.
    /// A stale result is answered only after its source is revalidated (not archived: the disk
    /// entry carries it as its `Expires`, ``ImageService/resultHTTP(_:)``).
    var freshUntil: Date?

    /// Whether it may be answered at `now` without asking the origin about its source.
    func isFresh(at now: Date) -> Bool { freshUntil.map { now < $0 } ?? true }

    /// What it costs in the service's memory cache: its bytes, plus 256 for the headers.
    var memoryCost: Int { data.count + 256 }

    /// Serialised for the disk cache: a small header line then the bytes.
    var archived: Data {
        let header = [contentType, etag, lastModified ?? "", negotiated ? "1" : "0"].joined(separator: "\t") + "\n"
        return Data(header.utf8) + data
    }

    init(data: Data, contentType: String, etag: String, lastModified: String?, negotiated: Bool, freshUntil: Date? = nil) {
        self.freshUntil = freshUntil
        self.data = data
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.negotiated = negotiated
    }

    /// Reads back ``archived`` (nil when it is not one).
    init?(archived: Data) {
        guard let newline = archived.firstIndex(of: UInt8(ascii: "\n")),
            let header = String(data: archived[archived.startIndex..<newline], encoding: .utf8)
        else { return nil }
        let fields = header.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 4 else { return nil }
        self.init(
            data: Data(archived[archived.index(after: newline)...]), contentType: fields[0], etag: fields[1],
            lastModified: fields[2].isEmpty ? nil : fields[2], negotiated: fields[3] == "1")
    }
}
