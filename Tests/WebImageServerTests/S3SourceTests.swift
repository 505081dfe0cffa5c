import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit

@testable import WebImageServer

/// `s3://` sources in the service, with the loopback server standing in for the store on a
/// loopback address the SSRF guard refuses (the store's endpoint skips it): images, `raw:1` and
/// `/info` from a signed fetch, one store request for both, the allowlist's 403 naming the
/// setting, the store's refusal of the credentials as 502, and settings checked at start.
@Suite("Service: s3:// sources", .serialized)
struct S3SourceTests {
    static let credentials = S3Credentials(accessKeyID: "AKIDSERVICE", secretAccessKey: "service-secret")

    /// Settings for `store`, allowing `photos`, naming the flags as `serve` does.
    static func s3(_ store: LoopbackHTTPServer) -> S3Configuration {
        var s3 = S3Configuration(region: "us-east-1", endpoint: store.baseURL, credentials: credentials)
        s3.allowedBuckets = ["photos"]
        s3.settingNames.allowedBuckets = "--s3-allow-bucket"
        return s3
    }

    @Test("images, raw:1 and /info from one signed fetch; other buckets 403; a refused signature 502")
    func serves() async throws {
        let store = try await LoopbackHTTPServer.start()
        store.route("/photos/cat.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg", headers: [("ETag", "\"s3-etag\"")]))
        store.route(
            "/photos/denied.jpg",
            response: .status(403, "<Error><Code>SignatureDoesNotMatch</Code><Message>no</Message></Error>"))
        try await ServiceHarness.with(origin: store, configure: {
            $0.urlPolicy = .ssrfGuard()   // nothing allowlisted: the endpoint is trusted as the operator's
            $0.s3 = Self.s3(store)
        }) { harness in
            let resized = try await harness.request(ServiceHarness.signed("rs:fit:32:32", source: "s3://photos/cat.jpg", ext: "png"))
            #expect(resized.status == 200, "\(resized.text)")
            #expect(try Fixtures.header(resized.body).pixelSize.width == 32)
            let raw = try await harness.request(ServiceHarness.signed("raw:1", source: "s3://photos/cat.jpg"))
            #expect(raw.body == Fixtures.jpeg)
            let info = try await harness.request("/info" + ServiceHarness.signed("", source: "s3://photos/cat.jpg"))
            #expect(info.status == 200)
            #expect(info.text.contains("s3-etag"))
            #expect(store.requestCount("/photos/cat.jpg") == 1)
            #expect(store.log.requests.first?.header("Authorization")?.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDSERVICE/") == true)

            let other = try await harness.request(ServiceHarness.signed("rs:fit:32:32", source: "s3://secrets/cat.jpg"))
            #expect(other.status == 403)
            #expect(other.text.contains("'secrets'") && other.text.contains("--s3-allow-bucket"))
            let denied = try await harness.request(ServiceHarness.signed("rs:fit:32:32", source: "s3://photos/denied.jpg"))
            #expect(denied.status == 502)
            #expect(denied.text.contains("storageSettings"))
            // Not remembered as a failed source: the next request asks the store again.
            _ = try await harness.request(ServiceHarness.signed("rs:fit:32:32", source: "s3://photos/denied.jpg"))
            #expect(store.requestCount("/photos/denied.jpg") == 2)
        }
    }

    @Test("s3:// refused when not configured; settings without credentials or with a bad endpoint do not start")
    func settings() async throws {
        try await ServiceHarness.with { harness in
            let off = try await harness.request(ServiceHarness.signed("rs:fit:32:32", source: "s3://photos/cat.jpg"))
            #expect(off.status == 403)
            #expect(off.text.contains("s3:// sources are not enabled"))
        }
        var configuration = ImageServerConfiguration()
        configuration.s3 = S3Configuration(endpoint: URL(string: "http://127.0.0.1:9")!)
        let missing = try #require(throws: WebImageError.self) { try ImageServer(configuration: configuration) }
        #expect(missing.code == .invalidServerConfiguration && missing.message.contains("credentials"))
        configuration.s3 = S3Configuration(endpoint: URL(string: "ftp://127.0.0.1/")!, credentials: Self.credentials)
        let endpoint = try #require(throws: WebImageError.self) { try ImageServer(configuration: configuration) }
        #expect(endpoint.message.contains("endpoint"))
    }
}
