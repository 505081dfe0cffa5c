import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@testable import WebImageServer

@Suite("Service: cache buster", .serialized)
struct CacheBusterTests {
    @Test("cb:VALUE enters the canonical key and so the ETag; the image is the same; it is signed")
    func cacheBuster() async throws {
        let options = try ProcessingOptions(segments: ["w:10", "cb:v2"])
        #expect(options.cacheBuster == "v2")
        #expect(options.canonicalKey.hasSuffix("/cb:v2"))
        #expect(try ProcessingOptions(segments: ["cachebuster:v2", "w:10"]).canonicalKey == options.canonicalKey)
        #expect(try ProcessingOptions(segments: ["w:10", "cb:"]).canonicalKey == ProcessingOptions(segments: ["w:10"]).canonicalKey)
        #expect(throws: WebImageError.self) { try ProcessingOptions(segments: ["cb:a:b"]) }
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let first = try await harness.image("w:64/cb:1", "/a.jpg", ext: "png")
            let second = try await harness.image("w:64/cb:2", "/a.jpg", ext: "png")
            let none = try await harness.image("w:64", "/a.jpg", ext: "png")
            #expect(first.status == 200 && second.status == 200)
            #expect(first.body == second.body && first.body == none.body)
            #expect(Set([first.header("ETag"), second.header("ETag"), none.header("ETag")]).count == 3)
            // Changing the value of a signed URL breaks its signature.
            let signed = ServiceHarness.signed("w:64/cb:1", source: harness.origin.url("/a.jpg").absoluteString, ext: "png")
            #expect(try await harness.request(signed.replacingOccurrences(of: "/cb:1/", with: "/cb:3/")).status == 403)
        }
    }
}
