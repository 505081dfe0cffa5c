import AsyncHTTPClient
import Foundation
import NIOCore
import WebImage

/// What a load of an `s3://` URL needs on every hop: the settings and the store's URL.
struct S3Target: Sendable {
    var configuration: S3Configuration
    var url: URL
}

extension HTTPImageLoader {
    /// For an `s3://` request, the store's http(s) URL of the object once the URL, the bucket
    /// allowlist and the settings are good; nil for any other URL.
    func s3Target(of request: ImageLoad.Request) throws -> S3Target? {
        guard S3Location.isS3(request.url) else { return nil }
        guard let s3 = configuration.s3 else {
            throw WebImageError(
                .storageSettings, "\(request.url.absoluteString) is an s3:// URL, and no S3 settings are given (HTTPImageLoaderConfiguration.s3)")
        }
        let object = try S3Location(request.url)
        try s3.validate()
        let url = try s3.httpURL(for: object)
        guard s3.credentials != nil else {
            throw WebImageError(.storageSettings, "s3:// sources need credentials: give \(s3.settingNames.credentials)")
        }
        return S3Target(configuration: s3, url: url)
    }

    /// `outgoing` signed when it goes to the store (a fresh date on every send: retries,
    /// redirect hops, the second try after a `401`), else unchanged.
    func signedForStore(_ outgoing: ImageLoad.URLRequest, s3: S3Target?) throws -> ImageLoad.URLRequest {
        guard let s3, s3.configuration.signs(outgoing.url) else { return outgoing }
        return try s3.configuration.signed(outgoing, at: Date())
    }

    /// The typed error of a store's failed answer, read from its XML body (at most 16 KB); nil
    /// when the answer is a success, a `304`, or carries no S3 error.
    func s3Failure(
        of response: HTTPClientResponse, head: ImageLoad.Response, request: ImageLoad.Request, s3: S3Target
    ) async -> WebImageError? {
        let status = head.statusCode ?? 0
        guard status != 304, !(request.acceptableStatusCodes ?? configuration.acceptableStatusCodes).contains(status) else {
            return nil
        }
        guard let buffer = try? await response.body.collect(upTo: S3ErrorResponse.maximumBytes),
            let answer = S3ErrorResponse(body: Data(buffer.readableBytesView), headers: head.headers)
        else { return nil }
        return answer.error(status: status, url: request.url, response: head, names: s3.configuration.settingNames)
    }
}
