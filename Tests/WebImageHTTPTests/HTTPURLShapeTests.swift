import Foundation
import Testing
import WebImage

@testable import WebImageHTTP

/// The URL checks and redirect rules on their own, without a server.
@Suite("HTTP loader: URL shape and redirect rules")
struct HTTPURLShapeTests {
    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test(arguments: [
        "http://127.0.0.1/x.png", "https://example.com:1/x", "http://example.com:65535/x", "http://[::1]:8080/x.png",
        "HTTPS://Example.COM/x", "http://example.com:/x", "http://u:p@example.com:80/x",
    ])
    func wellFormedURLsPass(_ text: String) throws {
        #expect(try HTTPURLShape.checked(url(text)).absoluteString == text)
    }

    @Test(arguments: [
        "http://127.0.0.1:99999/x.png", "http://[::1]:70000/x.png", "http://127.0.0.1:65536/x", "http://example.com:0/x",
        "http://127.0.0.1:99999999999999999999999/x.png",
    ])
    func portsOutsideTheRangeAreInvalidURLs(_ text: String) throws {
        let error = try #require(throws: WebImageError.self) { try HTTPURLShape.checked(url(text)) }
        #expect(error.code == .invalidURL)
        #expect(error.message.contains("outside 1…65535"), "\(error.message)")
    }

    @Test func anOverlongPortIsRefusedAlthoughFoundationReadsNoPort() throws {
        // Foundation gives no port for it; AsyncHTTPClient would then silently use port 80.
        let overlong = try url("http://127.0.0.1:99999999999999999999999/x.png")
        #expect(overlong.port == nil)
        #expect(throws: WebImageError.self) { try HTTPURLShape.checked(overlong) }
    }

    @Test(arguments: ["ftp://example.com/x.png", "file:///tmp/x.png", "http:///x.png", "mailto:a@example.com"])
    func otherSchemesAndMissingHostsAreInvalidURLs(_ text: String) throws {
        let error = try #require(throws: WebImageError.self) { try HTTPURLShape.checked(url(text)) }
        #expect(error.code == .invalidURL)
    }

    @Test func aRelativeURLIsCheckedAsTheAbsoluteOneItStandsFor() throws {
        let relative = try #require(URL(string: "/x.png", relativeTo: url("http://127.0.0.1:99999/")))
        #expect(throws: WebImageError.self) { try HTTPURLShape.checked(relative) }
        let fine = try #require(URL(string: "y/x.png", relativeTo: url("http://example.com/a/b")))
        #expect(try HTTPURLShape.checked(fine).absoluteString == "http://example.com/a/y/x.png")
    }

    @Test func originsCompareSchemeHostAndEffectivePort() throws {
        #expect(HTTPURLShape.origin(of: try url("http://Example.com/a")) == HTTPURLShape.origin(of: try url("http://example.com:80/b")))
        #expect(HTTPURLShape.origin(of: try url("https://example.com/")) == "https://example.com:443")
        #expect(HTTPURLShape.origin(of: try url("http://example.com/")) != HTTPURLShape.origin(of: try url("https://example.com/")))
        #expect(HTTPURLShape.origin(of: try url("http://a.example/")) != HTTPURLShape.origin(of: try url("http://b.example/")))
    }

    @Test func redirectTargetsResolveAgainstTheURLThatAnswered() throws {
        let current = try url("http://example.com/dir/start.png?q=1")
        #expect(try HTTPRedirect.target(status: 302, location: "next.png", from: current)?.absoluteString == "http://example.com/dir/next.png")
        #expect(try HTTPRedirect.target(status: 301, location: "/top.png", from: current)?.absoluteString == "http://example.com/top.png")
        #expect(try HTTPRedirect.target(status: 308, location: "../up.png", from: current)?.absoluteString == "http://example.com/up.png")
        #expect(try HTTPRedirect.target(status: 307, location: "//cdn.example/a.png", from: current)?.absoluteString == "http://cdn.example/a.png")
        #expect(try HTTPRedirect.target(status: 303, location: " https://other.example/b ", from: current)?.absoluteString == "https://other.example/b")
        #expect(try HTTPRedirect.target(status: 200, location: "/elsewhere", from: current) == nil)
        #expect(try HTTPRedirect.target(status: 304, location: "/elsewhere", from: current) == nil)
        #expect(try HTTPRedirect.target(status: 302, location: nil, from: current) == nil)
        #expect(try HTTPRedirect.target(status: 302, location: "", from: current) == nil)
        let error = try #require(throws: WebImageError.self) { try HTTPRedirect.target(status: 302, location: "http://[::1", from: current) }
        #expect(error.code == .invalidURL)
    }

    @Test func a303OrAPostMovedBy301Or302ContinuesAsAGetWithoutBody() throws {
        let from = try url("http://example.com/form")
        let to = try url("http://example.com/result.png")
        let post = ImageLoad.URLRequest(
            url: from, method: "POST", headers: ["Content-Type": "text/plain", "X-Keep": "1"], body: Data("a=1".utf8))
        for status in [301, 302, 303] {
            let next = HTTPRedirect.following(post, to: to, status: status)
            #expect(next.method == "GET" && next.body == nil && next.url == to)
            #expect(next.headers["Content-Type"] == nil && next.headers["X-Keep"] == "1")
        }
        for status in [307, 308] {
            let next = HTTPRedirect.following(post, to: to, status: status)
            #expect(next.method == "POST" && next.body == Data("a=1".utf8) && next.headers["Content-Type"] == "text/plain")
        }
        let get = ImageLoad.URLRequest(url: from)
        #expect(HTTPRedirect.following(get, to: to, status: 303).method == "GET")
        let head = ImageLoad.URLRequest(url: from, method: "HEAD")
        #expect(HTTPRedirect.following(head, to: to, status: 303).method == "HEAD")
    }

    @Test func aCrossOriginHopDropsCredentialsAndCookies() throws {
        let request = ImageLoad.URLRequest(
            url: try url("http://example.com/a"),
            headers: ["Authorization": "Basic eDp5", "Proxy-Authorization": "p", "Cookie": "c=1", "Accept": "image/*"])
        let same = HTTPRedirect.following(request, to: try url("http://example.com:80/b"), status: 302)
        #expect(same.headers["Authorization"] == "Basic eDp5" && same.headers["Cookie"] == "c=1")
        for other in ["https://example.com/b", "http://example.com:8080/b", "http://other.example/b"] {
            let next = HTTPRedirect.following(request, to: try url(other), status: 302)
            #expect(next.headers["Authorization"] == nil && next.headers["Proxy-Authorization"] == nil && next.headers["Cookie"] == nil)
            #expect(next.headers["Accept"] == "image/*")
        }
    }

    @Test func durationsAreDescribedForMessages() {
        #expect(HTTPImageLoader.describe(.seconds(15)) == "15 s")
        #expect(HTTPImageLoader.describe(.milliseconds(300)) == "300 ms")
        #expect(HTTPImageLoader.describe(.milliseconds(1_500)) == "1.5 s")
        #expect(HTTPImageLoader.describe(.milliseconds(2_050)) == "2.05 s")
    }
}
