public import Foundation
import WebImage

/// An access key of AWS (or of an S3-compatible store), with the session token of temporary
/// credentials. Printed or dumped, it shows the key ID only: the secret and the token stay out of logs.
public struct S3Credentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The access key ID (`AWS_ACCESS_KEY_ID`).
    public var accessKeyID: String
    /// The secret access key (`AWS_SECRET_ACCESS_KEY`).
    public var secretAccessKey: String
    /// The session token of temporary credentials (`AWS_SESSION_TOKEN`), sent as `X-Amz-Security-Token`.
    public var sessionToken: String?

    /// Credentials from their parts.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public var description: String {
        "S3Credentials(accessKeyID: \(accessKeyID), secretAccessKey: <redacted>\(sessionToken == nil ? "" : ", sessionToken: <redacted>"))"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["accessKeyID": accessKeyID, "secretAccessKey": "<redacted>"], displayStyle: .struct)
    }
}

/// Where `s3://bucket/key` URLs are fetched from and with which keys: the HTTP loader's
/// ``HTTPImageLoaderConfiguration/s3``.
///
/// - **Endpoint.** nil: AWS, `https://BUCKET.s3.REGION.amazonaws.com/KEY` (virtual-hosted). A
///   custom endpoint (MinIO, moto, Ceph, R2…): `ENDPOINT/BUCKET/KEY` (path-style). ``addressing``
///   overrides either.
/// - **Signing.** Every request the loader sends for an `s3://` URL is signed with AWS
///   Signature V4 just before it goes out (each retry, each redirect hop to the store, with a
///   fresh date), over `Host`, the `X-Amz-*` fields and the conditional and range fields
///   (`If-None-Match` of a revalidation, `Range`/`If-Range` of a resumed download), with the
///   empty body's hash as `X-Amz-Content-SHA256`.
/// - **Buckets.** With ``allowedBuckets`` set, any other bucket is refused before a request is made.
/// - **Errors** name the settings through ``settingNames``, so a tool can say which of its flags
///   or variables to fix.
///
/// ```swift
/// var s3 = S3Configuration(region: "eu-west-1")
/// s3.credentials = S3Credentials(accessKeyID: id, secretAccessKey: secret)
/// s3.allowedBuckets = ["photos"]
/// var http = HTTPImageLoaderConfiguration()
/// http.s3 = s3
/// let data = try await HTTPImageLoader(configuration: http).load(ImageLoad.Request(url: URL(string: "s3://photos/cat.jpg")!)).result().data
/// ```
public struct S3Configuration: Sendable {
    /// How objects are addressed on the endpoint.
    public enum Addressing: Sendable, Hashable {
        /// `https://BUCKET.ENDPOINT-HOST/KEY` (AWS's default).
        case virtualHosted
        /// `ENDPOINT/BUCKET/KEY` (S3-compatible stores).
        case path
    }

    /// How errors name each setting (default: this type's property names). A tool sets its own
    /// flags and variables here.
    public struct SettingNames: Sendable, Hashable {
        /// Names the credentials (e.g. `--s3-access-key-id, AWS_ACCESS_KEY_ID`).
        public var credentials = "S3Configuration.credentials"
        /// Names the region.
        public var region = "S3Configuration.region"
        /// Names the endpoint.
        public var endpoint = "S3Configuration.endpoint"
        /// Names the bucket allowlist.
        public var allowedBuckets = "S3Configuration.allowedBuckets"

        /// The property names.
        public init() {}
    }

    /// The region requests are signed for (default `us-east-1`).
    public var region: String
    /// The store's base URL (`http://127.0.0.1:9000`); nil: AWS's regional endpoint.
    public var endpoint: URL?
    /// The keys requests are signed with; nil fails every `s3://` load with
    /// ``WebImage/WebImageError/Code/storageSettings``.
    public var credentials: S3Credentials?
    /// The buckets that may be read; empty: any.
    public var allowedBuckets: Set<String> = []
    /// Path-style or virtual-hosted; nil: path-style for a custom ``endpoint``, virtual-hosted for AWS.
    public var addressing: Addressing?
    /// How errors name the settings.
    public var settingNames = SettingNames()

    /// A configuration for `region` on `endpoint` (nil: AWS).
    public init(region: String = "us-east-1", endpoint: URL? = nil, credentials: S3Credentials? = nil) {
        self.region = region
        self.endpoint = endpoint
        self.credentials = credentials
    }

    /// The addressing in force.
    public var effectiveAddressing: Addressing { addressing ?? (endpoint == nil ? .virtualHosted : .path) }

    /// The base URL requests go to: ``endpoint``, else `https://s3.REGION.amazonaws.com`.
    public var effectiveEndpoint: URL {
        endpoint ?? URL(string: "https://s3.\(region).amazonaws.com")!
    }

    /// Checks the settings themselves: an http(s) endpoint with a host and no query, a region
    /// that is one DNS label sequence. Throws ``WebImage/WebImageError/Code/storageSettings``
    /// naming the bad setting.
    public func validate() throws {
        if let endpoint {
            let scheme = endpoint.scheme?.lowercased()
            guard scheme == "http" || scheme == "https", let host = endpoint.host, !host.isEmpty, endpoint.query == nil else {
                throw WebImageError(
                    .storageSettings,
                    "the S3 endpoint \(endpoint.absoluteString) is not an http(s) URL with a host (\(settingNames.endpoint))")
            }
        }
        let regionIsValid =
            !region.isEmpty && region.count <= 64
            && region.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
        guard regionIsValid else {
            throw WebImageError(.storageSettings, "'\(region)' is not an AWS region name (\(settingNames.region))")
        }
    }

    /// The http(s) URL of `object` on the endpoint, after the allowlist: a bucket not on it is
    /// ``WebImage/WebImageError/Code/urlRefused`` naming ``SettingNames/allowedBuckets``.
    public func httpURL(for object: S3Location) throws -> URL {
        guard allowedBuckets.isEmpty || allowedBuckets.contains(object.bucket) else {
            throw WebImageError(
                .urlRefused,
                "the S3 bucket '\(object.bucket)' is not on the bucket allowlist (\(settingNames.allowedBuckets))")
        }
        let base = effectiveEndpoint
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else {
            throw WebImageError(.invalidURL, "the S3 endpoint \(base.absoluteString) is not a URL (\(settingNames.endpoint))")
        }
        let prefix = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        let encodedKey = AWSSignatureV4.uriEncode(object.key, keepingSlash: true)
        switch effectiveAddressing {
        case .path:
            components.percentEncodedPath = "\(prefix)/\(object.bucket)/\(encodedKey)"
        case .virtualHosted:
            components.host = "\(object.bucket).\(components.host ?? "")"
            components.percentEncodedPath = "\(prefix)/\(encodedKey)"
        }
        guard let url = components.url else {
            throw WebImageError(.invalidURL, "no URL can be made of s3://\(object.bucket)/\(object.key) on \(base.absoluteString)")
        }
        return url
    }

    /// Whether a request to `url` is one to the store, signed (the endpoint's origin, or for AWS
    /// any `amazonaws.com` host, where S3 redirects to another region's endpoint).
    func signs(_ url: URL) -> Bool {
        let origin = HTTPURLShape.origin(of: url)
        let base = effectiveEndpoint
        if origin == HTTPURLShape.origin(of: base) { return true }
        if effectiveAddressing == .virtualHosted, let host = url.host?.lowercased(), let baseHost = base.host?.lowercased(),
            host.hasSuffix("." + baseHost)
        {
            return url.scheme?.lowercased() == base.scheme?.lowercased()
        }
        return endpoint == nil && url.scheme?.lowercased() == "https" && (url.host?.lowercased().hasSuffix(".amazonaws.com") ?? false)
    }

    /// Whether `url` is on the custom endpoint the operator configured (path-style): such hops
    /// skip the URL policy, since the endpoint is the operator's, not the requester's choice.
    func isConfiguredEndpoint(_ url: URL) -> Bool {
        guard let endpoint, effectiveAddressing == .path else { return false }
        return HTTPURLShape.origin(of: url) == HTTPURLShape.origin(of: endpoint)
    }
}
