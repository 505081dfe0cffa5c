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
}
