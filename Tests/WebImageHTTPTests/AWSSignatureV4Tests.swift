import Foundation
import Testing
import WebImage
import WebImageHTTP

/// AWS Signature V4 against AWS's published vectors (`Tests/Fixtures`): the test suite's GET
/// cases (and a few POST ones) with their canonical request, string to sign and `Authorization`,
/// and S3's own documented examples (S3's path encoding, a range, a query, a payload hash).
@Suite("AWS Signature V4")
struct AWSSignatureV4Tests {
    /// One fixture file: the keys, scope and date, and its cases.
    struct VectorFile: Decodable {
        var accessKeyID: String
        var secretAccessKey: String
        var region: String
        var service: String
        var date: String
        var cases: [Case]

        struct Case: Decodable, CustomTestStringConvertible {
            var name: String
            // The test suite's raw request (`.req`); S3's examples give its parts instead.
            var req: String?
            var method: String?
            var path: String?
            var query: String?
            var headers: [[String]]?
            var body: String?
            var creq: String
            var sts: String
            var authz: String

            var testDescription: String { name }
        }

        static func load(_ name: String) throws -> VectorFile {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/\(name)")
            return try JSONDecoder().decode(VectorFile.self, from: Data(contentsOf: url))
        }

        func signer(_ encoding: AWSSignatureV4.PathEncoding) -> AWSSignatureV4 {
            AWSSignatureV4(
                credentials: S3Credentials(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey), region: region,
                service: service, pathEncoding: encoding)
        }

        var signingDate: Date {
            var components = DateComponents()
            let digits = Array(date.filter(\.isNumber))
            func number(_ range: Range<Int>) -> Int { Int(String(digits[range]))! }
            components.year = number(0..<4)
            components.month = number(4..<6)
            components.day = number(6..<8)
            components.hour = number(8..<10)
            components.minute = number(10..<12)
            components.second = number(12..<14)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar.date(from: components)!
        }
    }

    static var suite: VectorFile { signatureTestSuite }
    static var s3Examples: VectorFile { s3SignatureExamples }

    /// A `.req` file as a request to sign: the request line (its target may hold spaces), the
    /// header lines, and the body after a blank line.
    static func request(parsing text: String) -> AWSSignatureV4.Request {
        let (head, body) = text.range(of: "\n\n").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) } ?? (text, "")
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.removeFirst()
        let method = String(requestLine.prefix { $0 != " " })
        var target = String(requestLine.dropFirst(method.count + 1))
        if target.hasSuffix(" HTTP/1.1") { target.removeLast(" HTTP/1.1".count) }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let headers = lines.map { line -> (name: String, value: String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), String(line[line.index(after: colon)...]))
        }
        return AWSSignatureV4.Request(
            method: method, path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : nil, headers: headers,
            payloadHash: AWSSignatureV4.sha256Hex(Data(body.utf8)))
    }

    @Test("the test suite: canonical request, string to sign and Authorization", arguments: signatureTestSuite.cases)
    func testSuite(_ vector: VectorFile.Case) throws {
        let request = Self.request(parsing: try #require(vector.req))
        let signature = Self.suite.signer(.standard).sign(request, at: Self.suite.signingDate)
        #expect(signature.canonicalRequest == vector.creq)
        #expect(signature.stringToSign == vector.sts)
        #expect(signature.authorization == vector.authz)
    }

    @Test("S3's documented examples, with S3's path encoding", arguments: s3SignatureExamples.cases)
    func s3Examples(_ vector: VectorFile.Case) throws {
        let body = Data((vector.body ?? "").utf8)
        let request = AWSSignatureV4.Request(
            method: try #require(vector.method), path: try #require(vector.path), query: vector.query,
            headers: try #require(vector.headers).map { ($0[0], $0[1]) }, payloadHash: AWSSignatureV4.sha256Hex(body))
        let signature = Self.s3Examples.signer(.s3).sign(request, at: Self.s3Examples.signingDate)
        #expect(signature.canonicalRequest == vector.creq)
        #expect(signature.stringToSign == vector.sts)
        // S3's pages write the parts without the space after each comma.
        #expect(signature.authorization.replacingOccurrences(of: ", ", with: ",") == vector.authz)
    }

    @Test("S3Configuration signs a GET as S3's GET Object example does, and a revalidation with its If-None-Match")
    func configurationSignsRequests() throws {
        let example = Self.s3Examples
        var s3 = S3Configuration(
            region: example.region, credentials: S3Credentials(accessKeyID: example.accessKeyID, secretAccessKey: example.secretAccessKey))
        let url = try s3.httpURL(for: S3Location(URL(string: "s3://examplebucket/test.txt")!))
        #expect(url.absoluteString == "https://examplebucket.s3.us-east-1.amazonaws.com/test.txt")
        // The documented example is addressed to the global endpoint.
        var get = ImageLoad.URLRequest(url: URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")!, headers: ["Range": "bytes=0-9"])
        get.headers["User-Agent"] = "not signed"
        let signed = try s3.signed(get, at: example.signingDate)
        #expect(signed.headers["Authorization"]?.replacingOccurrences(of: ", ", with: ",") == example.cases[0].authz)
        #expect(signed.headers["Host"] == "examplebucket.s3.amazonaws.com")
        #expect(signed.headers["X-Amz-Date"] == "20130524T000000Z")
        #expect(signed.headers["X-Amz-Content-SHA256"] == AWSSignatureV4.emptyPayloadHash)

        var revalidation = ImageLoad.URLRequest(url: URL(string: "http://127.0.0.1:9000/photos/a%20b.jpg")!, headers: ["If-None-Match": "\"abc\""])
        s3.credentials?.sessionToken = "token"
        let conditional = try s3.signed(revalidation, at: example.signingDate)
        let authorization = try #require(conditional.headers["Authorization"])
        #expect(authorization.contains("SignedHeaders=host;if-none-match;x-amz-content-sha256;x-amz-date;x-amz-security-token,"))
        #expect(conditional.headers["Host"] == "127.0.0.1:9000")
        #expect(conditional.headers["X-Amz-Security-Token"] == "token")
        // Signed again (a retry): one of each field, a new signature for a new date.
        revalidation = conditional
        let again = try s3.signed(revalidation, at: example.signingDate.addingTimeInterval(60))
        #expect(again.headers.values(for: "Authorization").count == 1)
        #expect(again.headers.values(for: "X-Amz-Date") == ["20130524T000100Z"])
        #expect(again.headers["Authorization"] != authorization)
    }

    @Test("credentials print and dump without their secret")
    func credentialsStayOutOfLogs() {
        let credentials = S3Credentials(accessKeyID: "AKIDSHOWN", secretAccessKey: "hidden-secret", sessionToken: "hidden-token")
        var dumped = ""
        dump(S3Configuration(credentials: credentials), to: &dumped)
        for text in ["\(credentials)", String(reflecting: credentials), dumped] {
            #expect(text.contains("AKIDSHOWN"))
            #expect(!text.contains("hidden"), "\(text)")
        }
    }

    @Test("s3:// URLs: bucket and key, path-style on a custom endpoint, and what is refused")
    func locations() throws {
        let object = try S3Location(URL(string: "s3://photos/2026/cat%20one+two.jpg")!)
        #expect(object.bucket == "photos")
        #expect(object.key == "2026/cat one+two.jpg")
        let s3 = S3Configuration(endpoint: URL(string: "http://127.0.0.1:9000/base/")!)
        #expect(try s3.httpURL(for: object).absoluteString == "http://127.0.0.1:9000/base/photos/2026/cat%20one%2Btwo.jpg")
        for bad in ["s3://Photos/a.jpg", "s3://ph/a.jpg", "s3://photos/", "s3://photos", "s3://photos/a/../b.jpg", "s3://photos/a.jpg?versionId=1", "s3://u@photos/a.jpg", "s3://photos:9/a.jpg"] {
            #expect(throws: WebImageError.self, "\(bad)") { try S3Location(URL(string: bad)!) }
        }
        var allowing = s3
        allowing.allowedBuckets = ["other"]
        allowing.settingNames.allowedBuckets = "--s3-allow-bucket"
        let error = try #require(throws: WebImageError.self) { try allowing.httpURL(for: object) }
        #expect(error.code == .urlRefused)
        #expect(error.message.contains("'photos'") && error.message.contains("--s3-allow-bucket"))
    }
}

/// AWS's test suite (`Tests/Fixtures/aws-sig-v4-test-suite.json`).
private let signatureTestSuite = try! AWSSignatureV4Tests.VectorFile.load("aws-sig-v4-test-suite.json")
/// S3's documented examples (`Tests/Fixtures/aws-s3-sigv4-examples.json`).
private let s3SignatureExamples = try! AWSSignatureV4Tests.VectorFile.load("aws-s3-sigv4-examples.json")
