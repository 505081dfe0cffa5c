public import Foundation

/// The keys of `webimage serve`, the same in memory, on disk and in Redis (which prefixes its
/// namespace). They are stored formats: a change orphans every cache entry, and changes every
/// result's ETag (made from the result key).
extension CacheKeys {
    /// The key of a remote original fetched from `url`: `source:` then the absolute URL (also the
    /// key of the Redis lock that lets one node download it).
    ///
    /// ```swift
    /// CacheKeys.serviceSource(URL(string: "https://example.com/a.png")!)
    /// // "source:https://example.com/a.png"
    /// ```
    public static func serviceSource(_ url: URL) -> String { "source:" + url.absoluteString }

    /// The key of a rendered result: `result:<source URL>|<options>|<output>|q<quality>`, where
    /// `options` is the canonical text of the processing options (every option with its value, in
    /// a fixed order), `output` the format asked for or negotiated (`source` when the source's
    /// own) and `quality` the service's default quality; `formatQuality`, the service's
    /// per-format qualities in a fixed order (`avif:55:webp:75`), is appended as `|fq:…` when
    /// not empty (so keys made without it are unchanged).
    ///
    /// ```swift
    /// CacheKeys.serviceResult(source: url, options: "rs:fit:300:0:0:0/g:center", output: "webp", quality: 80)
    /// // "result:https://example.com/a.png|rs:fit:300:0:0:0/g:center|webp|q80"
    /// ```
    public static func serviceResult(source: URL, options: String, output: String, quality: Int, formatQuality: String = "") -> String {
        serviceResultPrefix(source: source) + options + "|" + output + "|q" + String(quality)
            + (formatQuality.isEmpty ? "" : "|fq:" + formatQuality)
    }

    /// What every result key of `source` starts with, and no other source's: `result:<source
    /// URL>|` (an absolute URL holds no raw `|`). A purge removes the entries under it.
    ///
    /// ```swift
    /// CacheKeys.serviceResultPrefix(source: URL(string: "https://example.com/a.png")!)
    /// // "result:https://example.com/a.png|"
    /// ```
    public static func serviceResultPrefix(source: URL) -> String { "result:" + source.absoluteString + "|" }
}
