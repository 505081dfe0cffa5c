public import Foundation
public import WebImage

extension S3Configuration {
    /// The header fields signed besides `Host` and the `X-Amz-*` ones: those that change what a
    /// GET answers (conditions, ranges) and a body's type.
    static let signedFieldNames: Set<String> = [
        "range", "if-range", "if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "content-type", "content-md5",
    ]

    /// `request` signed with AWS Signature V4 as of `date`: `Host`, `X-Amz-Date`,
    /// `X-Amz-Content-SHA256` (the body's SHA-256, or the empty body's), `X-Amz-Security-Token`
    /// with a session token, and `Authorization`, replacing any earlier ones. Signed: `Host`, the
    /// `X-Amz-*` fields, and the conditional, range and content-type fields present.
    ///
    /// Without ``credentials``, ``WebImage/WebImageError/Code/storageSettings`` naming them.
    ///
    /// ```swift
    /// var put = ImageLoad.URLRequest(url: try s3.httpURL(for: object), method: "PUT", body: bytes)
    /// put = try s3.signed(put, at: Date())
    /// ```
    public func signed(_ request: ImageLoad.URLRequest, at date: Date) throws -> ImageLoad.URLRequest {
        guard let credentials else {
            throw WebImageError(.storageSettings, "s3:// sources need credentials: give \(settingNames.credentials)")
        }
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true), let host = components.host else {
            throw WebImageError(.invalidURL, "\(request.url.absoluteString) has no host to sign")
        }
        var signed = request
        for name in ["Authorization", "Host", "X-Amz-Date", "X-Amz-Content-SHA256", "X-Amz-Security-Token"] {
            signed.headers[name] = nil
        }
        let scheme = components.scheme?.lowercased()
        let defaultPort = scheme == "https" ? 443 : 80
        let hostField = components.port.map { $0 == defaultPort ? host : "\(host):\($0)" } ?? host
        let payloadHash = request.body.map(AWSSignatureV4.sha256Hex) ?? AWSSignatureV4.emptyPayloadHash
        signed.headers["Host"] = hostField
        signed.headers["X-Amz-Date"] = AWSSignatureV4.timestamp(date)
        signed.headers["X-Amz-Content-SHA256"] = payloadHash
        if let token = credentials.sessionToken { signed.headers["X-Amz-Security-Token"] = token }
        let fields = signed.headers.fields.filter { field in
            let name = field.name.lowercased()
            return name == "host" || name.hasPrefix("x-amz-") || Self.signedFieldNames.contains(name)
        }
        let signer = AWSSignatureV4(credentials: credentials, region: region, service: "s3", pathEncoding: .s3)
        let signature = signer.sign(
            AWSSignatureV4.Request(
                method: request.method, path: components.path, query: components.percentEncodedQuery,
                headers: fields.map { ($0.name, $0.value) }, payloadHash: payloadHash),
            at: date)
        signed.headers["Authorization"] = signature.authorization
        return signed
    }
}
