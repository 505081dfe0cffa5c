import Crypto
import Foundation
import Testing
import WebImageHTTPTesting

@testable import WebImageServer

@Suite("Service: signatures", .serialized)
struct SignatureTests {
    @Test("the signature is base64url(HMAC-SHA256(key, salt + path)) without padding")
    func signatureScheme() throws {
        let key = try URLSigningKey(keyHex: "0a0b0c", saltHex: "01ff")
        let path = "/rs:fit:10:10/plain/https%3A%2F%2Fexample.com%2Fa.jpg"
        let mac = HMAC<SHA256>.authenticationCode(for: Data([0x01, 0xff]) + Data(path.utf8), using: SymmetricKey(data: Data([0x0a, 0x0b, 0x0c])))
        let expected = Data(mac).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(key.signature(for: path) == expected)
        #expect(key.verifies(Substring(expected), path: Substring(path)))
        #expect(!key.verifies(Substring(expected), path: Substring(path + "x")))
        #expect(throws: (any Error).self) { try URLSigningKey(keyHex: "xyz", saltHex: "00") }
        #expect(throws: (any Error).self) { try URLSigningKey(keyHex: "", saltHex: "00") }
    }

    @Test("good, bad, rotated and unsigned URLs")
    func goodBadRotatedUnsigned() async throws {
        let old = try URLSigningKey(keyHex: "6f6c642d6b6579", saltHex: "6f6c64")
        try await ServiceHarness.with(configure: { $0.signingKeys = [ServiceHarness.key, old] }) { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let source = harness.origin.url("/a.jpg").absoluteString

            let good = try await harness.request(ServiceHarness.signed("w:100", source: source))
            #expect(good.status == 200)

            let rotated = try await harness.request(ServiceHarness.signed("w:100", source: source, key: old))
            #expect(rotated.status == 200)

            let stranger = try URLSigningKey(keyHex: "6f74686572", saltHex: "6f6c64")
            let bad = try await harness.request(ServiceHarness.signed("w:100", source: source, key: stranger))
            #expect(bad.status == 403)
            #expect(bad.text.contains("invalidSignature"))

            // A signature for other options does not carry over.
            let signed = ServiceHarness.signed("w:100", source: source)
            let tampered = signed.replacingOccurrences(of: "w:100", with: "w:101")
            #expect(try await harness.request(tampered).status == 403)

            let unsigned = try await harness.request("/unsafe" + ServiceHarness.unsignedPath("w:100", source: source))
            #expect(unsigned.status == 403)
            #expect(unsigned.text.contains("--allow-unsigned"))
        }
    }

    @Test("unsafe is accepted only with allowsUnsigned")
    func unsafeAllowed() async throws {
        try await ServiceHarness.with(configure: { $0.allowsUnsigned = true; $0.signingKeys = [] }) { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let source = harness.origin.url("/a.jpg").absoluteString
            #expect(try await harness.request("/unsafe" + ServiceHarness.unsignedPath("w:100", source: source)).status == 200)
            #expect(try await harness.request("/_" + ServiceHarness.unsignedPath("w:100", source: source)).status == 200)
            #expect(try await harness.request(ServiceHarness.signed("w:100", source: source)).status == 403)
        }
    }

    /// Issue 24, finding 8: before, `=` and `==` suffixes, `+` for `-`, `/` for `_` and a last
    /// character with other low bits all verified, and any query string was ignored.
    @Test("only the canonical unpadded base64url signature verifies, and a query string is refused")
    func canonicalSignaturesOnly() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let source = harness.origin.url("/a.jpg").absoluteString
            let path = ServiceHarness.unsignedPath("w:100", source: source)
            // A key whose signature of this path has a `-` or `_` and a last character with
            // spare bits, so that every alternative spelling exists.
            var signature = ServiceHarness.key.signature(for: path)
            #expect(signature.count == 43)
            #expect(try await harness.request("/" + signature + path).status == 200)
            var spellings = [signature + "=", signature + "==", signature + "%3D"]
            if signature.contains("-") { spellings.append(signature.replacingOccurrences(of: "-", with: "+")) }
            if signature.contains("_") { spellings.append(signature.replacingOccurrences(of: "_", with: "/")) }
            // The 43rd character carries 4 bits of the hash and 2 spare bits: flip a spare one.
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            let last = alphabet.firstIndex(of: signature.removeLast())!
            spellings.append(signature + String(alphabet[last ^ 1]))
            signature.append(alphabet[last])
            for spelling in spellings {
                let answer = try await harness.request("/" + spelling + path)
                #expect(answer.status == 403, "\(spelling): \(answer.status)")
            }
            let query = try await harness.request("/" + signature + path + "?v=1")
            #expect(query.status == 400)
            #expect(query.text.contains("query string"), "\(query.text)")
            #expect(try await harness.request("/health?probe=1").status == 200)
        }
        try await ServiceHarness.with(configure: { $0.allowsQueryString = true }) { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let signed = ServiceHarness.signed("w:100", source: harness.origin.url("/a.jpg").absoluteString)
            #expect(try await harness.request(signed + "?v=1").status == 200)
        }
    }

    /// Issue 24, finding 9: before, a malformed path answered 400 naming what was wrong before
    /// the signature was looked at, and SSRF refusals quoted the DNS answer.
    @Test("the signature is checked before the path is parsed; internal addresses stay in the log")
    func signatureFirstAndShortReasons() async throws {
        try await ServiceHarness.with(configure: { $0.urlPolicy = .ssrfGuard() }) { (harness) async throws in
            let stranger = try URLSigningKey(keyHex: "6f74686572", saltHex: "6f6c64")
            for path in ["/rs:nonsense:1/plain/x", "/w:abc/plain/", "/plain/%ZZ", "/x"] {
                let unsigned = try await harness.request("/AAAA" + path)
                #expect(unsigned.status == 403, "\(path): \(unsigned.status) \(unsigned.text)")
                let wrong = try await harness.request("/" + stranger.signature(for: path) + path)
                #expect(wrong.status == 403, "\(path)")
                #expect(!wrong.text.contains("nonsense") && !wrong.text.contains("abc"), "\(wrong.text)")
            }
            // Signed, the same malformed path is a 400 with the reason.
            let bad = try await harness.request(ServiceHarness.signed("rs:nonsense:1", source: "http://example.com/a.jpg"))
            #expect(bad.status == 400)
            // The origin is loopback, refused by the default guard: the client is not told why in detail.
            let refused = try await harness.image("w:10", "/a.jpg")
            #expect(refused.status == 403, "\(refused.text)")
            #expect(refused.text.contains("urlRefused"))
            #expect(!refused.text.contains("127.0.0.1"), "\(refused.text)")
            #expect(!refused.text.lowercased().contains("loopback"), "\(refused.text)")
        }
    }
}
