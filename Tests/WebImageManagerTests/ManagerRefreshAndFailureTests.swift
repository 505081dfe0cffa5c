import Foundation
import Synchronization
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@Suite("ImageManager: refreshCached, failed URLs, hooks", .timeLimit(.minutes(3)))
struct ManagerRefreshAndFailureTests {
    @Test func refreshCachedWithA304DeliversTheCachedImageOnly() async throws {
        try await withHarness { harness in
            let png = try Fixture.png()
            harness.server.routeConditional(
                "/r.png", data: png, etag: "\"v1\"", lastModified: "Sat, 21 Nov 2026 10:00:00 GMT")
            let manager = try harness.makeManager()
            let url = harness.server.url("/r.png")
            let first = try await manager.image(for: ImageRequest(url: url, options: [.waitStoreCache]))
            let stored = try await diskEntry(manager.configuration.imageCache, url.absoluteString)
            #expect(stored?.metadata?.http.etag == "\"v1\"")

            let task = manager.task(for: ImageRequest(url: url, options: [.refreshCached]))
            var responses: [ImageResponse] = []
            for try await response in task.responses { responses.append(response) }
            #expect(responses.count == 1)
            #expect(responses.first?.isFinal == false)
            #expect(responses.first?.cacheType == .memory)
            #expect(responses.first?.image === first.image)
            let revalidation = try #require(harness.server.log.requests.last)
            #expect(revalidation.header("If-None-Match") == "\"v1\"")
            #expect(harness.server.requestCount("/r.png") == 2)
            #expect(try await task.response.image === first.image)
            #expect(try await diskEntry(manager.configuration.imageCache, url.absoluteString)?.data == png)
        }
    }

    @Test func a304RefreshesTheStoredValidatorsAndDates() async throws {
        try await withHarness { harness in
            let png = try Fixture.png()
            let first = [("ETag", "\"v1\""), ("Cache-Control", "max-age=60"), ("Date", "Sun, 22 Nov 2026 06:00:00 GMT")]
            let notModified = [("ETag", "\"v1\""), ("Cache-Control", "max-age=600"), ("Date", "Mon, 23 Nov 2026 06:00:00 GMT")]
            harness.server.route("/v.png") { request in
                request.header("If-None-Match") == "\"v1\""
                    ? TestResponse(status: 304, headers: notModified) : .ok(png, headers: first)
            }
            let manager = try harness.makeManager()
            let url = harness.server.url("/v.png")
            _ = try await manager.image(for: ImageRequest(url: url, options: [.waitStoreCache]))
            let before = try #require(try await diskEntry(manager.configuration.imageCache, url.absoluteString)?.metadata)
            #expect(before.http.cacheControl == "max-age=60")

            _ = try await manager.image(for: ImageRequest(url: url, options: [.refreshCached]))
            #expect(harness.server.requestCount("/v.png") == 2)
            let after = try #require(try await diskEntry(manager.configuration.imageCache, url.absoluteString)?.metadata)
            #expect(after.http.etag == "\"v1\"")
            #expect(after.http.cacheControl == "max-age=600")
            #expect(after.http.date == "Mon, 23 Nov 2026 06:00:00 GMT")
        }
    }

    @Test func refreshCachedWithAChangedImageDeliversTwice() async throws {
        try await withHarness { harness in
            let old = try Fixture.png(seed: 1)
            let new = try Fixture.png(width: 40, height: 30, seed: 2)
            harness.server.route("/x.png") { request in
                if request.header("If-None-Match") == "\"v1\"" {
                    return .ok(new, headers: [("ETag", "\"v2\"")])
                }
                return .ok(old, headers: [("ETag", "\"v1\"")])
            }
            let manager = try harness.makeManager()
            let url = harness.server.url("/x.png")
            _ = try await manager.image(for: ImageRequest(url: url, options: [.waitStoreCache]))
            let task = manager.task(for: ImageRequest(url: url, options: [.refreshCached, .waitStoreCache]))
            var responses: [ImageResponse] = []
            for try await response in task.responses { responses.append(response) }
            #expect(responses.map(\.isFinal) == [false, true])
            #expect(responses.map(\.image.pixelSize) == [PixelSize(width: 64, height: 48), PixelSize(width: 40, height: 30)])
            #expect(responses.last?.data == new)
            let cache = manager.configuration.imageCache
            let entry = try await diskEntry(cache, url.absoluteString)
            #expect(entry?.data == new)
            #expect(entry?.metadata?.http.etag == "\"v2\"")
            #expect(try await manager.image(for: url).image.pixelSize == PixelSize(width: 40, height: 30))
        }
    }

    @Test func failedURLsAreBlockedAndRetryFailedBypasses() async throws {
        try await withHarness { harness in
            let serveImage = Mutex(false)
            let png = try Fixture.png()
            harness.server.route("/f.png") { _ in
                serveImage.withLock { $0 } ? .ok(png) : .status(404, "gone")
            }
            let manager = try harness.makeManager()
            let url = harness.server.url("/f.png")
            #expect(await failureCode { try await manager.image(for: url) } == .invalidDownloadStatusCode)
            #expect(await failureCode { try await manager.image(for: url) } == .blockedURL)
            #expect(harness.server.requestCount("/f.png") == 1)
            #expect(await failureCode {
                try await manager.image(for: ImageRequest(url: url, options: [.retryFailed]))
            } == .invalidDownloadStatusCode)
            #expect(harness.server.requestCount("/f.png") == 2)

            serveImage.withLock { $0 = true }
            let recovered = try await manager.image(for: ImageRequest(url: url, options: [.retryFailed]))
            #expect(recovered.cacheType == .none)
            #expect(!manager.failedURLs.isBlocked(url))
            #expect(try await manager.image(for: url).cacheType == .memory)
        }
    }

    @Test func transientFailuresAreNotBlocked() async throws {
        try await withHarness { harness in
            harness.server.route("/busy.png", response: .status(503, "busy"))
            let manager = try harness.makeManager()
            let url = harness.server.url("/busy.png")
            #expect(await failureCode { try await manager.image(for: url) } == .invalidDownloadStatusCode)
            #expect(await failureCode { try await manager.image(for: url) } == .invalidDownloadStatusCode)
            #expect(harness.server.requestCount("/busy.png") == 2)
        }
    }

    @Test func undecodableBytesAreBlocked() async throws {
        try await withHarness { harness in
            harness.server.route("/junk.png", response: .ok(Data("not an image".utf8)))
            let manager = try harness.makeManager()
            let url = harness.server.url("/junk.png")
            #expect(await failureCode { try await manager.image(for: url) } == .badImageData)
            #expect(await failureCode { try await manager.image(for: url) } == .blockedURL)
            #expect(harness.server.requestCount("/junk.png") == 1)
        }
    }

    @Test func anUndecodablePageNamesTheContentTypeTheServerSent() async throws {
        try await withHarness { harness in
            harness.server.route("/login", response: .ok(Data("<html>sign in</html>".utf8), contentType: "text/html; charset=utf-8"))
            harness.server.route("/blob", response: .ok(Data("junk".utf8), contentType: "application/octet-stream"))
            let manager = try harness.makeManager()
            do {
                _ = try await manager.image(for: harness.server.url("/login"))
                Issue.record("an HTML page decoded as an image")
            } catch let error as WebImageError {
                #expect(error.code == .badImageData)
                #expect(error.message.hasSuffix("(the server sent text/html)"))
            }
            do {
                _ = try await manager.image(for: harness.server.url("/blob"))
                Issue.record("junk decoded as an image")
            } catch let error as WebImageError {
                #expect(error.code == .badImageData)
                #expect(!error.message.contains("the server sent"))
            }
        }
    }

    @Test func hooksDecideDownloadingBlockingAndOptions() async throws {
        try await withHarness { harness in
            harness.server.route("/h.png", response: .ok(try Fixture.png()))
            harness.server.route("/e.png", response: .status(500, "oops"))
            let refuse = try harness.makeManager { $0.shouldDownload = { $0.path != "/h.png" } }
            #expect(await failureCode { try await refuse.image(for: harness.server.url("/h.png")) } == .downloadDisallowed)
            #expect(harness.server.requestCount("/h.png") == 0)

            let cacheOnly = try harness.makeManager { configuration in
                configuration.optionsProcessor = { request in
                    var request = request
                    request.options.insert(.fromCacheOnly)
                    return request
                }
            }
            #expect(await failureCode { try await cacheOnly.image(for: harness.server.url("/h.png")) } == .notCached)
            #expect(harness.server.requestCount("/h.png") == 0)

            let blockAll = try harness.makeManager { $0.shouldBlockFailedURL = { _, _ in true } }
            let failing = harness.server.url("/e.png")
            #expect(await failureCode { try await blockAll.image(for: failing) } == .invalidDownloadStatusCode)
            #expect(await failureCode { try await blockAll.image(for: failing) } == .blockedURL)
            #expect(harness.server.requestCount("/e.png") == 1)
        }
    }
}


@Suite("ImageManager: failed-URL time to live", .timeLimit(.minutes(3)))
struct ManagerFailedURLTTLTests {
    @Test func aBlockedURLIsTriedAgainAfterItsTimeToLive() async throws {
        try await withHarness { harness in
            harness.server.route("/ttl.png", response: .status(404))
            let clock = ManualClock()
            let manager = try harness.makeManager { configuration in
                configuration.failedURLs = FailedURLCache(clock: clock, timeToLive: .seconds(600))
            }
            let url = harness.server.url("/ttl.png")
            #expect(await failureCode { try await manager.image(for: url) } == .invalidDownloadStatusCode)
            clock.advance(by: .seconds(599))
            #expect(await failureCode { try await manager.image(for: url) } == .blockedURL)
            #expect(harness.server.requestCount("/ttl.png") == 1)
            clock.advance(by: .seconds(1))
            #expect(await failureCode { try await manager.image(for: url) } == .invalidDownloadStatusCode)
            #expect(harness.server.requestCount("/ttl.png") == 2)
        }
    }
}
