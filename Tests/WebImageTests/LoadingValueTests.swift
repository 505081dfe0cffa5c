import Foundation
import Testing
import WebImage

@Suite("Loading values: headers, cache metadata, progress throttle, blocking policy")
struct LoadingValueTests {
    @Test func headersCompareNamesCaseInsensitivelyAndReplaceInPlace() {
        var headers: ImageLoad.Headers = ["Accept": "image/*", "X-A": "1"]
        headers.add("x-a", "2")
        #expect(headers.values(for: "X-A") == ["1", "2"])
        headers["ACCEPT"] = "image/webp"
        #expect(headers["accept"] == "image/webp")
        #expect(headers.fields.first?.name == "Accept")
        headers["x-a"] = "3"
        #expect(headers.values(for: "X-A") == ["3"])
        headers["X-A"] = nil
        #expect(headers["x-a"] == nil)
        let merged = headers.merging(["accept": "*/*", "X-New": "n"])
        #expect(merged.values(for: "Accept") == ["*/*"])
        #expect(merged["x-new"] == "n")
    }

    @Test func cacheMetadataReadsEveryFreshnessHeaderAndMakesConditionalHeaders() {
        let headers: ImageLoad.Headers = [
            "ETag": "\"v1\"", "Last-Modified": "Sat, 21 Nov 2026 10:00:00 GMT", "Cache-Control": "max-age=60",
            "Expires": "Thu, 01 Jan 2037 00:00:00 GMT", "Date": "Sun, 22 Nov 2026 06:00:00 GMT", "Age": " 7",
        ]
        let metadata = HTTPCacheMetadata(headers: headers)
        #expect(metadata.etag == "\"v1\"")
        #expect(metadata.lastModified == "Sat, 21 Nov 2026 10:00:00 GMT")
        #expect(metadata.cacheControl == "max-age=60")
        #expect(metadata.expires == "Thu, 01 Jan 2037 00:00:00 GMT")
        #expect(metadata.date == "Sun, 22 Nov 2026 06:00:00 GMT")
        #expect(metadata.age == 7)
        #expect(metadata.hasValidators)
        #expect(metadata.conditionalHeaders["If-None-Match"] == "\"v1\"")
        #expect(metadata.conditionalHeaders["If-Modified-Since"] == "Sat, 21 Nov 2026 10:00:00 GMT")
        #expect(!HTTPCacheMetadata().hasValidators)
        #expect(HTTPCacheMetadata().conditionalHeaders.isEmpty)
    }

    @Test func responseMimeTypeDropsParametersAndCase() {
        let response = ImageLoad.Response(
            url: URL(string: "http://127.0.0.1/a")!, statusCode: 200,
            headers: ["Content-Type": "Image/PNG; charset=binary", "Content-Length": "12"])
        #expect(response.mimeType == "image/png")
        #expect(response.expectedContentLength == 12)
    }

    @Test func throttleWithZeroIntervalReportsEveryUpdate() {
        var throttle = ProgressReportThrottle(minimumInterval: 0)
        let accepted = [1, 2, 3, 100].map { throttle.shouldReport(receivedBytes: $0, expectedBytes: 100) }
        #expect(accepted == [true, true, true, true])
        let finalNeeded = throttle.finalReportNeeded(receivedBytes: 100)
        #expect(!finalNeeded)
    }

    @Test func throttleReportsAtMostEveryIntervalAndAlwaysTheLast() {
        var throttle = ProgressReportThrottle(minimumInterval: 0.25)
        let reported = stride(from: 10, through: 95, by: 10).filter {
            throttle.shouldReport(receivedBytes: $0, expectedBytes: 100)
        }
        #expect(reported == [10, 40, 70])
        let finals = [throttle.finalReportNeeded(receivedBytes: 95), throttle.finalReportNeeded(receivedBytes: 95)]
        #expect(finals == [true, false])
        var complete = ProgressReportThrottle(minimumInterval: 0.9)
        let accepted = [10, 100].map { complete.shouldReport(receivedBytes: $0, expectedBytes: 100) }
        #expect(accepted == [true, true])
    }

    @Test func throttleWithoutATotalReportsEveryUpdate() {
        var throttle = ProgressReportThrottle(minimumInterval: 0.5)
        let accepted = [1, 2].map { throttle.shouldReport(receivedBytes: $0, expectedBytes: nil) }
        #expect(accepted == [true, true])
    }

    @Test func standardPolicyBlocksPermanentFailuresOnly() {
        let url = URL(string: "http://127.0.0.1/a")!
        let response = ImageLoad.Response(url: url, statusCode: 404)
        let policy = FailedURLBlockingPolicy.standard
        #expect(policy.shouldBlock(WebImageError(.invalidURL, "x")))
        #expect(policy.shouldBlock(WebImageError.badData("x")))
        #expect(policy.shouldBlock(WebImageError.invalidStatus(404, response: response)))
        #expect(policy.shouldBlock(WebImageError.invalidStatus(410, response: response)))
        for status in [401, 429, 500, 503] {
            #expect(!policy.shouldBlock(WebImageError.invalidStatus(status, response: response)))
        }
        for code: WebImageError.Code in [.cancelled, .timedOut, .networkError, .cacheNotModified, .tooLarge, .fileUnreadable] {
            #expect(!policy.shouldBlock(WebImageError(code, "x")))
        }
        #expect(!policy.shouldBlock(CancellationError()))
        #expect(!FailedURLBlockingPolicy.never.shouldBlock(WebImageError(.invalidURL, "x")))
    }

    @Test func statusAndContentTypeTravelTypedInTheError() {
        let url = URL(string: "http://127.0.0.1/a")!
        let response = ImageLoad.Response(url: url, statusCode: 415, headers: ["Content-Type": "text/html"])
        let status = WebImageError.invalidStatus(415, response: response)
        #expect(status.statusCode == 415)
        #expect(status.message.contains("415"))
        let type = WebImageError.invalidContentType("text/html", response: response)
        #expect(type.code == .invalidDownloadContentType)
        #expect(type.contentType == "text/html")
        #expect(WebImageError.notModified(response: response).downloadDetails?.response == response)
    }

    @Test func base64DecryptorDecodesAndRejectsGarbage() throws {
        let response = ImageLoad.Response(url: URL(string: "http://127.0.0.1/a")!)
        let plain = Data([0, 1, 2, 250, 251, 252])
        let encoded = Data(plain.base64EncodedString(options: .lineLength64Characters).utf8)
        #expect(try ImageDataDecryptor.base64.decrypt(encoded, response) == plain)
        #expect(throws: WebImageError.self) { try ImageDataDecryptor.base64.decrypt(Data("***".utf8), response) }
    }
}
