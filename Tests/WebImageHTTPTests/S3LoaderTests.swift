import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

/// `s3://` loads through the HTTP loader against the loopback server standing in for an S3
/// endpoint: path-style addressing, every request signed as it arrived (checked by signing the
/// received request again), the conditional and range fields signed (a revalidation, a resume),
/// retries and redirect hops signed afresh, one request for concurrent loads, the allowlist and
/// missing credentials refused before any request, the store's XML errors typed, the URL policy
/// skipped for the configured endpoint only, and the byte limit.
@Suite("HTTP loader: s3:// sources, signed", .timeLimit(.minutes(3)))
struct S3LoaderTests {
    static let credentials = S3Credentials(accessKeyID: "AKIDTEST", secretAccessKey: "secret/key+1", sessionToken: "session")

    /// Runs `body` with a loopback server standing in for the store and a loader whose S3
    /// settings point at it (path-style, region eu-west-1, `buckets` allowed), changed by `configure`.
    static func withStore(
        buckets: Set<String> = [], _ configure: (inout HTTPImageLoaderConfiguration) -> Void = { _ in },
        _ body: (LoopbackHTTPServer, HTTPImageLoader) async throws -> Void
    ) async throws {
        try await valueWithServerAndLoader(tls: nil, configuring: { configuration, server in
            var s3 = S3Configuration(region: "eu-west-1", endpoint: server.baseURL, credentials: credentials)
            s3.allowedBuckets = buckets
            s3.settingNames.credentials = "CREDENTIALS-SETTING"
            s3.settingNames.region = "REGION-SETTING"
            configuration.s3 = s3
            configure(&configuration)
        }, body)
    }

    /// Whether `request` carries a valid signature by `credentials` for `region`, recomputed from
    /// the request as it arrived (its path, its `Host`, the fields its `SignedHeaders` names).
    static func hasValidSignature(_ request: RecordedRequest, region: String = "eu-west-1") -> Bool {
        guard let authorization = request.header("Authorization"), let date = request.header("X-Amz-Date"),
            let payloadHash = request.header("X-Amz-Content-SHA256"),
            let signedList = authorization.components(separatedBy: "SignedHeaders=").last?.split(separator: ",").first
        else { return false }
        let signed = Set(signedList.split(separator: ";").map(String.init))
        let headers = request.headers.filter { signed.contains($0.name.lowercased()) }
        let parts = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let signer = AWSSignatureV4(credentials: credentials, region: region, service: "s3", pathEncoding: .s3)
        let expected = signer.sign(
            AWSSignatureV4.Request(
                method: request.method, path: String(parts[0]).removingPercentEncoding ?? "", query: parts.count > 1 ? String(parts[1]) : nil,
                headers: headers, payloadHash: payloadHash),
            at: Self.date(date))
        return expected.authorization == authorization
    }

    static func date(_ timestamp: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.date(from: timestamp) ?? .distantPast
    }

    @Test func anObjectIsFetchedPathStyleAndSigned() async throws {
        let data = testBytes(5_000)
        try await Self.withStore { server, loader in
            server.route("/photos/2026/cat%20one.png", response: .ok(data, headers: [("ETag", "\"v1\"")]))
            let result = try await loader.load(ImageLoad.Request(url: URL(string: "s3://photos/2026/cat%20one.png")!)).result()
            #expect(result.data == data)
            #expect(result.response.cacheMetadata.etag == "\"v1\"")
            let request = try #require(server.log.requests.first)
            #expect(request.header("X-Amz-Content-SHA256") == AWSSignatureV4.emptyPayloadHash)
            #expect(request.header("X-Amz-Security-Token") == "session")
            #expect(request.header("Host") == "127.0.0.1:\(server.port)")
            let authorization = try #require(request.header("Authorization"))
            #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDTEST/"))
            #expect(authorization.contains("/eu-west-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,"))
            #expect(Self.hasValidSignature(request))
        }
    }

    @Test func aRevalidationSignsItsIfNoneMatchAndA304IsNotModified() async throws {
        try await Self.withStore { server, loader in
            server.routeConditional("/photos/a.png", data: testBytes(800), etag: "\"v1\"", lastModified: "Sun, 22 Nov 2026 06:00:00 GMT")
            var request = ImageLoad.Request(url: URL(string: "s3://photos/a.png")!)
            request.revalidation = HTTPCacheMetadata(etag: "\"v1\"")
            let error = await loadError(loader.load(request))
            #expect(error?.code == .cacheNotModified)
            let received = try #require(server.log.requests.first)
            #expect(received.header("If-None-Match") == "\"v1\"")
            #expect(received.header("Authorization")?.contains("SignedHeaders=host;if-none-match;") == true)
            #expect(Self.hasValidSignature(received))
        }
    }

    @Test func eachRetryIsSignedAgain() async throws {
        try await Self.withStore({
            $0.retryStrategy = .exponentialBackoff(maximumRetries: 2, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(5))
        }) { server, loader in
            let data = testBytes(1_000)
            server.routeSequence("/photos/flaky.png", [.status(503, "<Error><Code>SlowDown</Code></Error>"), .ok(data)])
            let result = try await loader.load(ImageLoad.Request(url: URL(string: "s3://photos/flaky.png")!)).result()
            #expect(result.data == data)
            let requests = server.log.requests
            #expect(requests.count == 2)
            #expect(requests.allSatisfy { Self.hasValidSignature($0) })
            #expect(requests.allSatisfy { $0.headers.filter { $0.name.lowercased() == "authorization" }.count == 1 })
        }
    }

    @Test func aRedirectHopToTheStoreIsSignedForItsOwnPath() async throws {
        try await Self.withStore { server, loader in
            let data = testBytes(700)
            server.route("/photos/old.png", response: .redirect(to: "/photos/new.png", status: 307))
            server.route("/photos/new.png", response: .ok(data))
            let result = try await loader.load(ImageLoad.Request(url: URL(string: "s3://photos/old.png")!)).result()
            #expect(result.data == data)
            let requests = server.log.requests
            #expect(requests.map(\.path) == ["/photos/old.png", "/photos/new.png"])
            #expect(requests.allSatisfy { Self.hasValidSignature($0) })
            #expect(requests[0].header("Authorization") != requests[1].header("Authorization"))
        }
    }

    @Test func aCutDownloadResumesWithItsRangeAndIfRangeSigned() async throws {
        try await Self.withStore { server, loader in
            let data = testBytes(10_000)
            let ranges = LockedValues()
            HTTPResumeTests.route(server, "/photos/cut.png", data: data, cut: 4_000, ranges: ranges)
            let url = URL(string: "s3://photos/cut.png")!
            #expect(await loadError(loader.load(ImageLoad.Request(url: url)))?.code == .networkError)
            let result = try await loader.load(ImageLoad.Request(url: url)).result()
            #expect(result.data == data)
            #expect(ranges.values == ["-", "bytes=4000-"])
            let resumed = try #require(server.log.requests.last)
            #expect(resumed.header("Authorization")?.contains("SignedHeaders=host;if-range;range;x-amz-content-sha256;") == true)
            #expect(Self.hasValidSignature(resumed))
        }
    }

    @Test func concurrentLoadsOfOneObjectShareOneSignedRequest() async throws {
        try await Self.withStore { server, loader in
            let data = testBytes(2_000)
            server.route("/photos/shared.png", response: .trickle(data, bytesPerStep: 200, interval: .milliseconds(20)))
            let url = URL(string: "s3://photos/shared.png")!
            async let first = loader.load(ImageLoad.Request(url: url)).result()
            async let second = loader.load(ImageLoad.Request(url: url)).result()
            let results = try await [first, second]
            #expect(results.allSatisfy { $0.data == data })
            #expect(server.requestCount("/photos/shared.png") == 1)
        }
    }

    @Test func aBucketOffTheAllowlistAndMissingCredentialsAreRefusedBeforeAnyRequest() async throws {
        try await Self.withStore(buckets: ["photos"], { $0.s3?.settingNames.allowedBuckets = "ALLOWLIST-SETTING" }) { server, loader in
            let refused = await loadError(loader.load(ImageLoad.Request(url: URL(string: "s3://secrets/a.png")!)))
            #expect(refused?.code == .urlRefused)
            #expect(refused?.message.contains("'secrets'") == true && refused?.message.contains("ALLOWLIST-SETTING") == true)
            // Not an s3:// URL the loader can address: invalid, before any request too.
            let invalid = await loadError(loader.load(ImageLoad.Request(url: URL(string: "s3://photos/a/../b.png")!)))
            #expect(invalid?.code == .invalidURL)
            #expect(server.log.requests.isEmpty)
        }
        try await Self.withStore(buckets: ["photos"], { $0.s3?.credentials = nil }) { server, loader in
            let missing = await loadError(loader.load(ImageLoad.Request(url: URL(string: "s3://photos/a.png")!)))
            #expect(missing?.code == .storageSettings)
            #expect(missing?.message.contains("CREDENTIALS-SETTING") == true)
            let notBlocked = try #require(missing)
            #expect(FailedURLBlockingPolicy.standard.shouldBlock(notBlocked) == false)
            #expect(server.log.requests.isEmpty)
        }
        try await Self.withStore({ $0.s3 = nil }) { server, loader in
            let unset = await loadError(loader.load(ImageLoad.Request(url: URL(string: "s3://photos/a.png")!)))
            #expect(unset?.code == .storageSettings)
            #expect(unset?.message.contains("HTTPImageLoaderConfiguration.s3") == true)
            #expect(server.log.requests.isEmpty)
        }
    }

    @Test func theStoresErrorsAreTypedAndNameTheSettings() async throws {
        func xml(_ code: String, _ message: String) -> TestResponse {
            .status(403, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>\(code)</Code><Message>\(message)</Message></Error>",
                    headers: [("Content-Type", "application/xml")])
        }
        try await Self.withStore { server, loader in
            server.route("/photos/signature.png", response: xml("SignatureDoesNotMatch", "The request signature we calculated does not match"))
            server.route("/photos/key.png", response: xml("InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist"))
            server.route("/photos/region.png", response: xml("AuthorizationHeaderMalformed", "the region &apos;eu-west-1&apos; is wrong"))
            var missing = TestResponse.status(404, "<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>")
            missing.headers = [("Content-Type", "application/xml")]
            server.route("/photos/missing.png", response: missing)

            let signature = try #require(await loadError(loader.load(ImageLoad.Request(url: URL(string: "s3://photos/signature.png")!))))
            #expect(signature.code == .storageSettings)
            #expect(signature.statusCode == 403)
            #expect(signature.message.contains("SignatureDoesNotMatch"))
            #expect(signature.message.contains("the secret access key or the region is wrong (CREDENTIALS-SETTING; REGION-SETTING)"))
            #expect(FailedURLBlockingPolicy.standard.shouldBlock(signature) == false)

            let key = try #require(await loadError(loader.load(ImageLoad.Request(url: URL(string: "s3://photos/key.png")!))))
            #expect(key.code == .storageSettings && key.message.contains("access key ID (CREDENTIALS-SETTING)"))
            let region = try #require(await loadError(loader.load(ImageLoad.Request(url: URL(string: "s3://photos/region.png")!))))
            #expect(region.code == .storageSettings && region.message.contains("'eu-west-1'") && region.message.contains("REGION-SETTING"))

            let notFound = try #require(await loadError(loader.load(ImageLoad.Request(url: URL(string: "s3://photos/missing.png")!))))
            #expect(notFound.code == .invalidDownloadStatusCode)
            #expect(notFound.statusCode == 404)
            #expect(notFound.message.contains("NoSuchKey"))
            #expect(FailedURLBlockingPolicy.standard.shouldBlock(notFound))
        }
    }

    @Test func theConfiguredEndpointSkipsTheURLPolicyAndTheByteLimitApplies() async throws {
        try await Self.withStore({
            $0.urlPolicy = .ssrfGuard()
            $0.maximumResponseBytes = 2_000
        }) { server, loader in
            server.route("/photos/small.png", response: .ok(testBytes(1_000)))
            server.route("/photos/big.png", response: .ok(testBytes(5_000)))
            let small = try await loader.load(ImageLoad.Request(url: URL(string: "s3://photos/small.png")!)).result()
            #expect(small.data.count == 1_000)
            // The same loopback address as a plain http source: the guard refuses it.
            let direct = await loadError(loader.load(ImageLoad.Request(url: server.url("/photos/small.png"))))
            #expect(direct?.code == .urlRefused)
            let big = await loadError(loader.load(ImageLoad.Request(url: URL(string: "s3://photos/big.png")!)))
            #expect(big?.code == .tooLarge)
        }
    }
}
