import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

@Suite("HTTP loader: headers, auth, modifiers, decryptor, status and content type", .timeLimit(.minutes(3)))
struct HTTPRequestResponseTests {
    @Test func defaultGlobalAndPerRequestHeadersAreSent() async throws {
        try await withServerAndLoader({ $0.headers["X-Global"] = "g" }) { server, loader in
            server.route("/h", response: .ok(testBytes(10)))
            _ = try await loader.load(ImageLoad.Request(url: server.url("/h"))).result()
            var request = ImageLoad.Request(url: server.url("/h"))
            request.headers = ["X-Request": "r", "accept": "image/png"]
            _ = try await loader.load(request).result()
            let sent = server.log.requests
            #expect(sent[0].header("Accept") == "image/webp,image/apng,image/*,*/*;q=0.8")
            #expect(sent[0].header("User-Agent") == "WebImage/\(HTTPImageLoaderConfiguration.webImageVersion) (Linux; Swift)")
            #expect(sent[0].header("X-Global") == "g")
            #expect(sent[1].header("X-Request") == "r")
            #expect(sent[1].header("Accept") == "image/png")
            #expect(sent[1].headers.filter { $0.name.lowercased() == "accept" }.count == 1)
        }
    }

    @Test func basicAuthCredentialIsSent() async throws {
        var configuration = HTTPImageLoaderConfiguration()
        configuration.credential = ImageLoad.Credential(user: "ann", password: "s3cret")
        try await withServerAndLoader({ $0 = configuration }) { server, loader in
            server.routeBasicAuth("/private.png", user: "ann", password: "s3cret", response: .ok(testBytes(64)))
            let privateData = try await loader.load(ImageLoad.Request(url: server.url("/private.png"))).result().data
            #expect(privateData == testBytes(64))
            var wrong = ImageLoad.Request(url: server.url("/private.png"))
            wrong.credential = ImageLoad.Credential(user: "ann", password: "nope")
            let error = await loadError(loader.load(wrong))
            #expect(error?.code == .invalidDownloadStatusCode)
            #expect(error?.statusCode == 401)
        }
    }

    @Test func credentialHookAnswersA401ChallengeOnce() async throws {
        let realms = LockedValues()
        var configuration = HTTPImageLoaderConfiguration()
        configuration.credentialProvider = { url, challenge in
            realms.append(challenge ?? "none")
            return url.path == "/hook.png" ? ImageLoad.Credential(user: "bob", password: "pw") : nil
        }
        try await withServerAndLoader({ $0 = configuration }) { server, loader in
            server.routeBasicAuth("/hook.png", user: "bob", password: "pw", realm: "pics", response: .ok(testBytes(32)))
            server.routeBasicAuth("/other.png", user: "bob", password: "pw", response: .ok(testBytes(32)))
            let hookData = try await loader.load(ImageLoad.Request(url: server.url("/hook.png"))).result().data
            #expect(hookData == testBytes(32))
            #expect(server.requestCount("/hook.png") == 2)
            #expect(server.log.requests[1].basicCredentials?.user == "bob")
            #expect(realms.values == ["Basic realm=\"pics\""])
            #expect(await loadError(loader.load(ImageLoad.Request(url: server.url("/other.png"))))?.statusCode == 401)
        }
    }

    @Test func requestModifierRewritesURLMethodHeadersAndBody() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/rewritten.png", response: .ok(testBytes(20, seed: 2)))
            var request = ImageLoad.Request(url: server.url("/original.png"))
            let target = server.url("/rewritten.png")
            request.requestModifier = ImageRequestModifier { outgoing in
                var outgoing = outgoing
                outgoing.url = target
                outgoing.method = "POST"
                outgoing.headers["X-Signed"] = "yes"
                outgoing.body = Data("payload".utf8)
                return outgoing
            }
            #expect(try await loader.load(request).result().data == testBytes(20, seed: 2))
            let sent = try #require(server.log.requests.first)
            #expect(sent.path == "/rewritten.png")
            #expect(sent.method == "POST")
            #expect(sent.header("X-Signed") == "yes")
            #expect(sent.body == Data("payload".utf8))
            #expect(server.requestCount("/original.png") == 0)
        }
    }

    @Test func requestModifierCanCancel() async throws {
        try await withServerAndLoader({ $0.requestModifier = ImageRequestModifier { _ in nil } }) { server, loader in
            server.route("/never.png", response: .ok(testBytes(10)))
            let url = server.url("/never.png")
            let error = await loadError(loader.load(ImageLoad.Request(url: url)))
            #expect(error?.code == .cancelled)
            #expect(!loader.shouldBlockFailedURL(url, error: error!))
            #expect(server.requestCount("/never.png") == 0)
        }
    }

    @Test func responseModifierRewritesStatusAndHeadersOrRejects() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/missing.png", response: TestResponse(status: 404, headers: [("Content-Type", "image/png")], body: TestResponse.steps(testBytes(8))))
            var rescued = ImageLoad.Request(url: server.url("/missing.png"))
            rescued.responseModifier = ImageResponseModifier { response in
                var response = response
                response.statusCode = 200
                response.headers["ETag"] = "\"rewritten\""
                return response
            }
            let result = try await loader.load(rescued).result()
            #expect(result.data == testBytes(8))
            #expect(result.response.statusCode == 200)
            #expect(result.response.cacheMetadata.etag == "\"rewritten\"")
            var rejected = ImageLoad.Request(url: server.url("/missing.png"))
            rejected.responseModifier = ImageResponseModifier { _ in nil }
            #expect(await loadError(loader.load(rejected))?.code == .invalidDownloadResponse)
        }
    }

    @Test func base64DecryptorTransformsTheBody() async throws {
        try await withServerAndLoader({ $0.decryptor = .base64 }) { server, loader in
            let image = testBytes(1_000, seed: 5)
            server.route("/b64", response: .ok(Data(image.base64EncodedString().utf8), contentType: "text/plain"))
            var request = ImageLoad.Request(url: server.url("/b64"))
            request.reportsPartialData = true
            let (events, result) = try await collectEvents(loader.load(request))
            #expect(result?.data == image)
            #expect(progressEvents(events).allSatisfy { $0.partialData == nil })
            #expect(result?.metrics.receivedBytes == image.base64EncodedString().utf8.count)
        }
    }

    @Test func unacceptableStatusIsATypedErrorAndPermanentOnesBlock() async throws {
        try await withServerAndLoader { server, loader in
            for status in [404, 410, 500, 503] { server.route("/s\(status)", response: .status(status, "no")) }
            for status in [404, 410, 500, 503] {
                let url = server.url("/s\(status)")
                let error = try #require(await loadError(loader.load(ImageLoad.Request(url: url))))
                #expect(error.code == .invalidDownloadStatusCode)
                #expect(error.statusCode == status)
                #expect(error.message.contains("\(status)"))
                #expect(loader.shouldBlockFailedURL(url, error: error) == (status < 500))
            }
            var lenient = ImageLoad.Request(url: server.url("/s404"))
            lenient.acceptableStatusCodes = [200, 404]
            #expect(try await loader.load(lenient).result().data == Data("no".utf8))
        }
    }

    @Test func unacceptableContentTypeIsATypedError() async throws {
        try await withServerAndLoader({ $0.acceptableContentTypes = ["image/png", "image/jpeg"] }) { server, loader in
            server.route("/page", response: .ok(Data("<html>".utf8), contentType: "text/html; charset=utf-8"))
            server.route("/img", response: .ok(testBytes(10), contentType: "IMAGE/PNG"))
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: server.url("/page")))))
            #expect(error.code == .invalidDownloadContentType)
            #expect(error.contentType == "text/html; charset=utf-8")
            #expect(error.statusCode == 200)
            #expect(try await loader.load(ImageLoad.Request(url: server.url("/img"))).result().data == testBytes(10))
        }
    }

    @Test func redirectChainsAreFollowedUpToTen() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/final.png", response: .ok(testBytes(40)))
            server.routeRedirectChain(from: "/ten", hops: 10, to: "/final.png")
            server.routeRedirectChain(from: "/eleven", hops: 11, to: "/final.png")
            let result = try await loader.load(ImageLoad.Request(url: server.url("/ten"))).result()
            #expect(result.data == testBytes(40))
            #expect(result.response.url == server.url("/final.png"))
            #expect(result.metrics.redirectCount == 10)
            let error = await loadError(loader.load(ImageLoad.Request(url: server.url("/eleven"))))
            #expect(error?.code == .invalidDownloadResponse)
            #expect(server.requestCount("/final.png") == 1)
        }
    }

    @Test func revalidationSendsValidatorsAndReports304AsNotModified() async throws {
        try await withServerAndLoader { server, loader in
            let data = testBytes(4_000)
            let lastModified = "Sat, 21 Nov 2026 10:00:00 GMT"
            server.routeConditional("/c.png", data: data, etag: "\"abc\"", lastModified: lastModified)
            let url = server.url("/c.png")
            let fresh = try await loader.load(ImageLoad.Request(url: url)).result()
            let metadata = fresh.response.cacheMetadata
            #expect(metadata.etag == "\"abc\"")
            #expect(metadata.lastModified == lastModified)
            #expect(metadata.cacheControl == "max-age=60")
            #expect(metadata.expires == "Thu, 01 Jan 2037 00:00:00 GMT")
            #expect(metadata.date == "Sun, 22 Nov 2026 06:00:00 GMT")
            #expect(metadata.age == 5)

            var byTag = ImageLoad.Request(url: url)
            byTag.revalidation = metadata
            let error = try #require(await loadError(loader.load(byTag)))
            #expect(error.code == .cacheNotModified)
            #expect(error.statusCode == 304)
            #expect(error.downloadDetails?.response?.cacheMetadata.cacheControl == "max-age=60")
            #expect(!loader.shouldBlockFailedURL(url, error: error))
            #expect(server.log.requests[1].header("If-None-Match") == "\"abc\"")
            #expect(server.log.requests[1].header("If-Modified-Since") == lastModified)

            var byDate = ImageLoad.Request(url: url)
            byDate.revalidation = HTTPCacheMetadata(lastModified: lastModified)
            #expect(await loadError(loader.load(byDate))?.code == .cacheNotModified)
            #expect(server.log.requests[2].header("If-None-Match") == nil)

            var stale = ImageLoad.Request(url: url)
            stale.revalidation = HTTPCacheMetadata(etag: "\"old\"")
            #expect(try await loader.load(stale).result().data == data)
        }
    }
}

