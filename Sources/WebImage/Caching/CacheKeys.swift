public import Foundation

/// How cache keys are derived, as SDWebImage does: the URL's absolute string (through an optional
/// filter), then a suffix per transform that changes the stored image, in this order:
/// `-Thumbnail({w,h},aspect)`, `-FirstFrame`, `-<transformer key>`, each inserted before the path
/// extension. The empty string is never a key (``validate(_:)``).
///
/// ```swift
/// CacheKeys.transformed("https://x.com/a.png?v=2", transformerKey: "Resize(10x10)")
/// // "https://x.com/a-Resize(10x10).png?v=2" — the extension is kept last
/// ```
public enum CacheKeys {
    /// The separator between a key and a transformer key.
    public static let separator = "-"

    /// The key for `url`: `filter(url)` when a filter is given, else the absolute string.
    public static func key(for url: URL, filter: (@Sendable (URL) -> String?)? = nil) -> String? {
        if let filter { return filter(url) }
        return url.absoluteString
    }

    /// `key` with `transformerKey` appended, keeping the path extension last (SDWebImage's
    /// `SDTransformedKeyForKey`): `…/name-<transformerKey>.ext?query` for URLs, `name-<transformerKey>.ext`
    /// for plain keys, `key-<transformerKey>` when there is no extension.
    public static func transformed(_ key: String, transformerKey: String) -> String {
        if let components = URLComponents(string: key), components.scheme != nil, components.scheme != "file" {
            let path = components.path
            let ext = pathExtension(of: path)
            guard !ext.isEmpty else { return key + separator + transformerKey }
            var rebuilt = components
            rebuilt.percentEncodedPath = String(components.percentEncodedPath.dropLast(ext.utf8.count + 1))
                + separator + percentEncodedForPath(transformerKey) + "." + ext
            return rebuilt.string ?? key + separator + transformerKey
        }
        let ext = pathExtension(of: key)
        guard !ext.isEmpty else { return key + separator + transformerKey }
        return String(key.dropLast(ext.count + 1)) + separator + transformerKey + "." + ext
    }

    /// The key of a thumbnail decode (SDWebImage's `SDThumbnailedKeyForKey`): the thumbnail size
    /// and aspect flag are part of the key; the scale-down limit is not.
    public static func thumbnailed(_ key: String, size: PixelSize, preserveAspectRatio: Bool) -> String {
        transformed(key, transformerKey: "Thumbnail({\(size.width),\(size.height)},\(preserveAspectRatio ? 1 : 0))")
    }

    /// The key of a first-frame-only decode: `-FirstFrame` before the extension
    /// (`…/a-FirstFrame.gif`), so a static first frame and the full animation never share an entry.
    public static func firstFrame(_ key: String) -> String {
        transformed(key, transformerKey: "FirstFrame")
    }

    /// The key of a draft thumbnail decode (``ImageDecodingOptions/draft``): `-Draft` before the
    /// extension, after the thumbnail part, since a draft keeps the decoder's reduced size instead of
    /// the box.
    public static func drafted(_ key: String) -> String {
        transformed(key, transformerKey: "Draft")
    }

    /// The key of a decode into premultiplied alpha: `-Premultiplied` before the extension, so the
    /// two representations of one image never share a memory entry.
    public static func premultiplied(_ key: String) -> String {
        transformed(key, transformerKey: "Premultiplied")
    }

    /// The key of a decode under a colour policy other than ``ColorPolicy/sRGB``: `-Color(keep)`
    /// or `-Color(ignore)` before the extension, so pixels converted to sRGB and pixels as stored
    /// never share a memory entry.
    public static func colorPolicy(_ key: String, _ policy: ColorPolicy) -> String {
        policy == .sRGB ? key : transformed(key, transformerKey: "Color(\(policy.rawValue))")
    }

    /// The key of a decode under a metadata policy other than ``MetadataPolicy/strip``:
    /// `-Metadata(copyright)`, `-Metadata(keep)` or `-Metadata(keep-all)` before the extension, so
    /// an image with its metadata and one without never share an entry.
    public static func metadataPolicy(_ key: String, _ policy: MetadataPolicy) -> String {
        policy == .strip ? key : transformed(key, transformerKey: "Metadata(\(policy.rawValue))")
    }

    /// Throws ``WebImageError/Code/invalidCacheKey`` for the empty string, which is not a key:
    /// every cache refuses to store under it.
    ///
    /// ```swift
    /// try CacheKeys.validate(key)     // before storing under a key a filter produced
    /// ```
    public static func validate(_ key: String) throws {
        if key.isEmpty { throw WebImageError(.invalidCacheKey, "the empty string is not a cache key") }
    }

    /// The extension of the last path component (`""` when none).
    static func pathExtension(of path: String) -> String {
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return "" }
        let ext = last[last.index(after: dot)...]
        return ext.isEmpty || ext.contains(where: { !$0.isLetter && !$0.isNumber }) ? "" : String(ext)
    }

    private static func percentEncodedForPath(_ string: String) -> String {
        string.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? string
    }
}
