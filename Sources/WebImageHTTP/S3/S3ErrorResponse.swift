import Foundation
public import WebImage

extension WebImageError.Code {
    /// The object store cannot be used with the settings given: no credentials, credentials or a
    /// region the store refuses (`SignatureDoesNotMatch`, `InvalidAccessKeyId`,
    /// `AuthorizationHeaderMalformed`, an expired token), a bad endpoint. The message names the
    /// setting to fix. Never blocks the URL: fixing the setting makes it work.
    public static let storageSettings = WebImageError.Code(rawValue: "storageSettings")
}

/// The XML error body an S3 store answers a failed request with (`<Error><Code>…</Code>
/// <Message>…</Message></Error>`), read from at most ``maximumBytes`` bytes, and the typed error
/// it means.
struct S3ErrorResponse: Sendable, Hashable {
    /// The most bytes of an error body read.
    static let maximumBytes = 16 * 1024

    /// S3's error code (`NoSuchKey`, `SignatureDoesNotMatch`, …).
    var code: String
    /// S3's message, if any.
    var message: String?
    /// The bucket's region, when the store names it (`<Region>` or `x-amz-bucket-region`).
    var region: String?

    /// The error in `body`, or nil when it is not one.
    init?(body: Data, headers: ImageLoad.Headers) {
        let text = String(decoding: body.prefix(Self.maximumBytes), as: UTF8.self)
        guard let code = Self.element("Code", in: text), !code.isEmpty else { return nil }
        self.code = code
        message = Self.element("Message", in: text)
        region = headers["x-amz-bucket-region"] ?? Self.element("Region", in: text)
    }

    /// The typed error for this answer to `url` (an `s3://` URL) with `status`.
    func error(status: Int, url: URL, response: ImageLoad.Response, names: S3Configuration.SettingNames) -> WebImageError {
        let said = message.map { ": \($0)" } ?? ""
        let details = WebImageError.DownloadDetails(statusCode: status, contentType: response.contentType, response: response)
        let settings: String? =
            switch code {
            case "SignatureDoesNotMatch":
                "the store refused the request's signature: the secret access key or the region is wrong (\(names.credentials); \(names.region))"
            case "InvalidAccessKeyId":
                "the store does not know the access key ID (\(names.credentials))"
            case "AuthorizationHeaderMalformed", "AuthorizationQueryParametersError":
                "the region the request was signed for is wrong\(region.map { ", the bucket is in \($0)" } ?? "") (\(names.region))"
            case "PermanentRedirect", "IllegalLocationConstraintException", "WrongRegion":
                "the bucket is not in this region or on this endpoint\(region.map { ", it is in \($0)" } ?? "") (\(names.region); \(names.endpoint))"
            case "ExpiredToken", "InvalidToken", "TokenRefreshRequired":
                "the session token is expired or not valid (\(names.credentials))"
            default:
                nil
            }
        if let settings {
            return WebImageError(
                .storageSettings, "S3 answered \(url.absoluteString) with HTTP \(status) \(code)\(said); \(settings)", underlying: details)
        }
        return WebImageError(
            .invalidDownloadStatusCode, "download of \(url.absoluteString) answered HTTP \(status) \(code)\(said)", underlying: details)
    }

    /// The text of the first `<name>…</name>` element, entities decoded, or nil.
    private static func element(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: "<\(name)>"), let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
