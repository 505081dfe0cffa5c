import Crypto
public import Foundation
import WebImage

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`) over one request: the canonical request, the
/// string to sign, the signature and the `Authorization` value, as AWS's published test suite
/// spells them.
///
/// Every header given is signed; the caller chooses which (the S3 signer signs `host`, the
/// `x-amz-*` fields and the conditional and range fields). The date is given, never read, so a
/// signature is reproducible.
///
/// ```swift
/// let signer = AWSSignatureV4(
///     credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
///     region: "us-east-1", service: "s3", pathEncoding: .s3)
/// let request = AWSSignatureV4.Request(
///     method: "GET", path: "/photos/cat.jpg",
///     headers: [("Host", "bucket.s3.amazonaws.com"), ("X-Amz-Date", "20150830T123600Z")],
///     payloadHash: AWSSignatureV4.emptyPayloadHash)
/// print(signer.sign(request, at: date).authorization)
/// ```
public struct AWSSignatureV4: Sendable {
    /// How the request's path becomes the canonical URI.
    public enum PathEncoding: Sendable, Hashable {
        /// S3's rule: the path (the object key, not yet percent-encoded) is encoded once, `/` kept,
        /// and never normalized: `a/../b` and `a//b` are keys of their own.
        case s3
        /// Every other service's rule: the path as sent is normalized (`.` and `..` segments
        /// resolved, repeated slashes collapsed) and each segment encoded (a `%` already in it is
        /// encoded again).
        case standard
    }

    /// One request to sign.
    public struct Request: Sendable {
        /// The HTTP method, e.g. `GET`.
        public var method: String
        /// The path: for ``PathEncoding/s3`` the decoded key path (`/bucket/a b.jpg`), for
        /// ``PathEncoding/standard`` the path as sent.
        public var path: String
        /// The query as sent, without `?` (`a=1&b=2`); its parameters are decoded and re-encoded.
        public var query: String?
        /// The headers to sign, names in any case; repeated names are signed as one list.
        public var headers: [(name: String, value: String)]
        /// The hex SHA-256 of the body (``emptyPayloadHash`` for none), or `UNSIGNED-PAYLOAD`.
        public var payloadHash: String

        /// A request from its parts.
        public init(
            method: String, path: String, query: String? = nil, headers: [(name: String, value: String)], payloadHash: String
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// The signing's results, each as AWS's test suite writes it.
    public struct Signature: Sendable, Hashable {
        /// The canonical request (the suite's `.creq`).
        public var canonicalRequest: String
        /// The string to sign (`.sts`).
        public var stringToSign: String
        /// The signed header names, lowercased, sorted, `;`-separated.
        public var signedHeaders: String
        /// The signature, lowercase hex.
        public var signature: String
        /// The `Authorization` header's value (`.authz`).
        public var authorization: String
    }

    /// The hex SHA-256 of an empty body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// The lowercase hex SHA-256 of `body`: a request's payload hash.
    public static func sha256Hex(_ body: Data) -> String { SHA256.hash(data: body).hexString }

    /// The keys signing.
    public var credentials: S3Credentials
    /// The region of the credential scope (`us-east-1`).
    public var region: String
    /// The service of the credential scope (`s3`).
    public var service: String
    /// How the path is made canonical.
    public var pathEncoding: PathEncoding

    /// A signer for `service` in `region`.
    public init(credentials: S3Credentials, region: String, service: String, pathEncoding: PathEncoding) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.pathEncoding = pathEncoding
    }

    /// Signs `request` as of `date` (which must be the request's `X-Amz-Date`).
    public func sign(_ request: Request, at date: Date) -> Signature {
        let (headerLines, signedHeaders) = Self.canonicalHeaders(request.headers)
        let canonicalRequest = [
            request.method.uppercased(), canonicalURI(request.path), Self.canonicalQuery(request.query),
            headerLines, signedHeaders, request.payloadHash,
        ].joined(separator: "\n")
        let timestamp = Self.timestamp(date)
        let day = String(timestamp.prefix(8))
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = [
            "AWS4-HMAC-SHA256", timestamp, scope, SHA256.hash(data: Data(canonicalRequest.utf8)).hexString,
        ].joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let signature = HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key).hexString
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
        return Signature(
            canonicalRequest: canonicalRequest, stringToSign: stringToSign, signedHeaders: signedHeaders,
            signature: signature, authorization: authorization)
    }

    /// `date` as `X-Amz-Date` writes it: `20150830T123600Z` (UTC).
    public static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        return "\(parts.year ?? 1970)\(two(parts.month))\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z"
    }

    /// AWS's `UriEncode`: every byte but `A–Z a–z 0–9 - _ . ~` (and `/` when kept) as `%XX`.
    public static func uriEncode(_ text: String, keepingSlash: Bool) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlash:
                result.append("/")
            default:
                result += "%" + String([byte].hexString.uppercased())
            }
        }
        return result
    }

    private func canonicalURI(_ path: String) -> String {
        let path = path.isEmpty ? "/" : path
        switch pathEncoding {
        case .s3:
            return Self.uriEncode(path, keepingSlash: true)
        case .standard:
            var segments: [Substring] = []
            for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
                if segment == "." { continue }
                if segment == ".." {
                    _ = segments.popLast()
                    continue
                }
                segments.append(segment)
            }
            let encoded = "/" + segments.map { Self.uriEncode(String($0), keepingSlash: false) }.joined(separator: "/")
            return path.hasSuffix("/") && !segments.isEmpty ? encoded + "/" : encoded
        }
    }

    /// The query's parameters decoded, encoded again, sorted by name then value.
    private static func canonicalQuery(_ query: String?) -> String {
        guard let query, !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { parameter -> (String, String) in
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            return (uriEncode(name, keepingSlash: false), uriEncode(value, keepingSlash: false))
        }
        return pairs.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// The canonical header lines (each ending in a newline) and the signed header names.
    private static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> (lines: String, signed: String) {
        var values: [String: [String]] = [:]
        for header in headers {
            values[header.name.lowercased(), default: []].append(trimmed(header.value))
        }
        let names = values.keys.sorted()
        let lines = names.map { "\($0):\(values[$0]!.joined(separator: ","))\n" }.joined()
        return (lines, names.joined(separator: ";"))
    }

    /// The value without surrounding white space, each run of spaces inside as one.
    private static func trimmed(_ value: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in value.trimmingCharacters(in: .whitespaces) {
            if character == " " || character == "\t" {
                pendingSpace = true
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(character)
        }
        return result
    }
}
