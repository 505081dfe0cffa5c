import Foundation
public import WebImage
import WebImageHTTP

/// An image URL's path, split as imgproxy's grammar says:
/// `/{signature}/{option}/…/plain/{percent-encoded source}[@ext]` or
/// `/{signature}/{option}/…/{base64url source}[.ext]` (a base64 source may be split by `/`).
///
/// Options are the segments with a `:`; the first segment without one starts the source.
///
/// ```swift
/// let path = try ImagePath(parsing: "/unsafe/rs:fit:300:0/plain/https%3A%2F%2Fexample.com%2Fa.jpg@webp")
/// print(path.source, path.extensionFormat ?? .undefined)   // https://example.com/a.jpg webp
/// ```
public struct ImagePath: Sendable, Hashable {
    /// The first segment: a base64url signature, or `unsafe`/`_`.
    public var signature: Substring
    /// Everything the signature covers: the path after the signature segment, from its `/`.
    public var signedPart: Substring
    /// The option segments, in order.
    public var optionSegments: [Substring]
    /// The source as written, decoded (percent- or base64-): `https://…` or `local:///…`.
    public var source: String
    /// The format named by `@ext` (plain) or `.ext` (base64), if any.
    public var extensionFormat: ImageFormat?

    /// Splits `path` (the request target without its query); throws
    /// ``WebImage/WebImageError/Code/invalidProcessingOptions`` when it has no source.
    ///
    /// With `presetNames` (the service's `--only-presets`), every segment before a `plain`
    /// segment is an option segment even without a `:`, so that imgproxy's single preset name
    /// (`/SIG/thumb/plain/…`) reads as one.
    public init(parsing path: Substring, presetNames: Bool = false) throws {
        var rest = path
        guard rest.first == "/" else { throw Self.bad("the path must start with /") }
        rest = rest.dropFirst()
        guard let slash = rest.firstIndex(of: "/") else {
            throw Self.bad("the path needs /{signature}/{options}/{source}")
        }
        signature = rest[..<slash]
        signedPart = rest[slash...]
        var segments = rest[rest.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false)[...]
        optionSegments = []
        let bareBeforePlain = presetNames && segments.contains("plain")
        while let segment = segments.first, segment.contains(":") || bareBeforePlain, segment != "plain" {
            optionSegments.append(segment)
            segments = segments.dropFirst()
        }
        guard let first = segments.first, !first.isEmpty else { throw Self.bad("the path has no source") }
        if first == "plain" {
            var encoded = segments.dropFirst().joined(separator: "/")
            extensionFormat = nil
            if let at = encoded.lastIndex(of: "@"), let format = ImageFormat(fileExtension: String(encoded[encoded.index(after: at)...])) {
                extensionFormat = format
                encoded = String(encoded[..<at])
            }
            guard !encoded.isEmpty, let decoded = encoded.removingPercentEncoding else {
                throw Self.bad("the plain source is empty or badly percent-encoded")
            }
            source = decoded
        } else {
            var encoded = segments.joined()
            extensionFormat = nil
            if let dot = encoded.lastIndex(of: ".") {
                let name = String(encoded[encoded.index(after: dot)...])
                guard let format = ImageFormat(fileExtension: name) else { throw Self.bad("unknown extension '.\(name)'") }
                extensionFormat = format
                encoded = String(encoded[..<dot])
            }
            guard let bytes = Data(base64URLEncoded: encoded), let decoded = String(data: bytes, encoding: .utf8), !decoded.isEmpty
            else { throw Self.bad("the source is neither plain/… nor base64url") }
            source = decoded
        }
    }

    static func bad(_ message: String) -> WebImageError {
        WebImageError(.invalidProcessingOptions, message)
    }
}

/// Where an image comes from: the web, or a file under the configured root.
enum ImageSource: Sendable, Hashable {
    case remote(URL)
    case local(URL)

    /// The source's URL (a local one resolved under the root): what its cache keys are made of.
    var url: URL {
        switch self {
        case .remote(let url), .local(let url): url
        }
    }

    /// `http(s)://…`, `local:///relative/path` (resolved under `root`, never outside it) or
    /// `s3://bucket/key` (with `s3` settings, a bucket they allow).
    init(_ text: String, localRoot: URL?, s3: S3Configuration? = nil) throws {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw WebImageError(.invalidURL, "the source '\(text)' is not a URL")
        }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else { throw WebImageError(.invalidURL, "the source '\(text)' has no host") }
            self = .remote(url)
        case "local":
            guard let root = localRoot else {
                throw WebImageError(.sourceRefused, "local:// sources are not enabled (start with --local-root DIR)")
            }
            self = .local(try Self.resolve(localPath: url.path, text: text, under: root))
        case "s3":
            guard let s3 else {
                throw WebImageError(.sourceRefused, "s3:// sources are not enabled (start with --use-s3, --s3-endpoint or --s3-allow-bucket)")
            }
            do {
                _ = try s3.httpURL(for: try S3Location(url))
            } catch let error as WebImageError where error.code == .urlRefused {
                throw WebImageError(.sourceRefused, error.message)
            }
            self = .remote(url)
        default:
            throw WebImageError(.sourceRefused, "the source scheme '\(scheme)' is not fetched (http, https, s3 and local only)")
        }
    }

    /// `path` under `root`: no `..` component, no symbolic link leading out of the root.
    static func resolve(localPath: String, text: String, under root: URL) throws -> URL {
        let components = localPath.split(separator: "/")
        guard !components.isEmpty, !components.contains(where: { $0 == ".." || $0 == "." }) else {
            throw WebImageError(.sourceRefused, "the local source '\(text)' leaves the root")
        }
        let base = root.standardizedFileURL.resolvingSymlinksInPath()
        var file = base
        for component in components { file.appendPathComponent(String(component)) }
        let resolved = file.resolvingSymlinksInPath()
        let basePath = base.path.hasSuffix("/") ? base.path : base.path + "/"
        guard resolved.path.hasPrefix(basePath) else {
            throw WebImageError(.sourceRefused, "the local source '\(text)' leaves the root")
        }
        return resolved
    }
}
