import Foundation
import Testing
import WebImageCodecs
import WebImageHTTP
import WebImageTesting

/// `s3://bucket/key` end to end against moto's S3 server on loopback (one per suite), which checks
/// every signature with botocore: `webimage fetch` and `webimage serve` read signed objects,
/// revalidate with a signed If-None-Match, and name the setting to fix when the credentials, the
/// region or the bucket allowlist are wrong. Skipped with a loud note when moto is not installed.
@Suite("s3:// sources against moto", .serialized, .enabled(if: MotoServer.isAvailable), .motoServer, .timeLimit(.minutes(10)))
struct S3EndToEndTests {
    /// The running suite's moto.
    var moto: MotoServer {
        get throws { try #require(MotoServer.current, "the suite's moto server") }
    }

    /// The environment of a child: this moto's key, and nothing else of AWS's or ours.
    func environment(_ moto: MotoServer, secret: String? = nil, keyID: String? = nil) -> [String: String] {
        var environment = Self.cleared
        environment["AWS_ACCESS_KEY_ID"] = keyID ?? moto.credentials.accessKeyID
        environment["AWS_SECRET_ACCESS_KEY"] = secret ?? moto.credentials.secretAccessKey
        return environment
    }

    /// Every variable the S3 settings read, emptied (an empty one counts as unset).
    static let cleared: [String: String] = Dictionary(
        uniqueKeysWithValues: [
            "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL",
            "AWS_ENDPOINT_URL_S3", "WEBIMAGE_S3_ENDPOINT", "WEBIMAGE_S3_REGION", "WEBIMAGE_S3_ALLOW_BUCKET", "WEBIMAGE_USE_S3",
            "WEBIMAGE_S3_ACCESS_KEY_ID", "WEBIMAGE_S3_SECRET_ACCESS_KEY", "WEBIMAGE_S3_SESSION_TOKEN",
        ].map { ($0, "") })

    @Test("fetch reads a signed object, and --refresh revalidates it with a signed If-None-Match (304)")
    func fetchAndRevalidate() async throws {
        let moto = try moto
        let image = try Fixture.png(width: 64, height: 48, seed: 7)
        try await moto.put(bucket: "fetch-photos", objects: ["cats/cat.png": image])
        try await withTemporaryDirectory { directory in
            let arguments = [
                "fetch", "s3://fetch-photos/cats/cat.png", "-o", "out", "--json", "--s3-endpoint", moto.endpoint.absoluteString,
                "--cache-dir", directory.appendingPathComponent("cache").path,
            ]
            let first = try await CLI.run(arguments, in: directory, environment: environment(moto))
            #expect(first.status == 0, "\(first.stderr) \(first.stdout)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("out/cat.png")) == image)
            let finished = try #require(try first.jsonLines().first { $0["event"] as? String == "finished" })
            #expect(finished["source"] as? String == "network")
            #expect(finished["width"] as? Int == 64)

            // moto answers 304 only to an If-None-Match with the object's ETag, and only when the
            // signature (which lists it) verifies.
            let refreshed = try await CLI.run(arguments + ["--refresh"], in: directory, environment: environment(moto))
            #expect(refreshed.status == 0, "\(refreshed.stderr) \(refreshed.stdout)")
            let again = try #require(try refreshed.jsonLines().first { $0["event"] as? String == "finished" })
            #expect(again["source"] as? String == "disk")
        }
    }

    @Test("fetch: errors name the setting (no credentials, a wrong secret, an unknown key ID, the allowlist, the endpoint)")
    func fetchErrorsNameTheSetting() async throws {
        let moto = try moto
        try await moto.put(bucket: "errors-photos", objects: ["a.png": try Fixture.png()])
        try await withTemporaryDirectory { directory in
            func failure(_ extra: [String], _ environment: [String: String]) async throws -> (CLIRun, String) {
                let run = try await CLI.run(
                    ["fetch", "s3://errors-photos/a.png", "-o", "out", "--json", "--no-cache", "--s3-endpoint", moto.endpoint.absoluteString]
                        + extra,
                    in: directory, environment: environment)
                let failed = try run.jsonLines().first { $0["event"] as? String == "failed" }
                let error = failed?["error"] as? [String: Any]
                return (run, "\(error?["code"] as? String ?? "?"): \(error?["message"] as? String ?? run.stderr)")
            }
            let (noKeys, noKeysMessage) = try await failure([], Self.cleared)
            #expect(noKeys.status == 1)
            #expect(noKeysMessage.hasPrefix("storageSettings:"))
            #expect(noKeysMessage.contains("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"), "\(noKeysMessage)")

            let (_, wrongSecret) = try await failure([], environment(moto, secret: "not-the-secret"))
            #expect(wrongSecret.hasPrefix("storageSettings:"))
            #expect(wrongSecret.contains("SignatureDoesNotMatch"), "\(wrongSecret)")
            #expect(wrongSecret.contains("the secret access key or the region is wrong"))
            #expect(wrongSecret.contains("--s3-region or AWS_REGION"))

            let (_, unknownKey) = try await failure([], environment(moto, keyID: "AKIDUNKNOWN0000000"))
            #expect(unknownKey.contains("InvalidAccessKeyId"), "\(unknownKey)")
            #expect(unknownKey.contains("--s3-access-key-id"))

            let (_, refused) = try await failure(["--s3-allow-bucket", "other-photos"], environment(moto))
            #expect(refused.hasPrefix("urlRefused:"))
            #expect(refused.contains("'errors-photos'") && refused.contains("--s3-allow-bucket"), "\(refused)")

            let usage = try await CLI.run(
                ["fetch", "s3://errors-photos/a.png", "--s3-endpoint", "ftp://127.0.0.1/"], in: directory, environment: environment(moto))
            #expect(usage.status == 2)
            #expect(usage.stderr.contains("--s3-endpoint"), "\(usage.stderr)")
        }
    }

    @Test("serve: /plain/s3://… and base64 sources, the allowlist (403), a missing key (404), bad credentials (502), settings at start")
    func serve() async throws {
        let moto = try moto
        let image = try Fixture.png(width: 64, height: 48, seed: 9)
        try await moto.put(bucket: "serve-photos", objects: ["cat.png": image])
        try await withTemporaryDirectory { directory in
            let common = ["--port", "0", "--allow-unsigned", "--s3-endpoint", moto.endpoint.absoluteString]
            let served = try await ServeCommandTests.Served.start(
                common + ["--s3-allow-bucket", "serve-photos", "--cache-dir", directory.appendingPathComponent("cache").path],
                environment: environment(moto), in: directory)
            let resized = try await served.get("/unsafe/rs:fit:32:32/plain/s3://serve-photos/cat.png@png")
            #expect(resized.status == 200, "\(String(decoding: resized.body, as: UTF8.self))")
            #expect(try ImageCodersManager.standard().readHeader(resized.body).pixelSize == PixelSize(width: 32, height: 24))
            let encoded = Data("s3://serve-photos/cat.png".utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            let base64 = try await served.get("/unsafe/rs:fit:16:16/\(encoded).png")
            #expect(base64.status == 200)

            let refused = try await served.get("/unsafe/rs:fit:32:32/plain/s3://other-photos/cat.png")
            #expect(refused.status == 403)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("--s3-allow-bucket"))
            #expect(try await served.get("/unsafe/plain/s3://serve-photos/missing.png").status == 404)
            #expect(try await served.terminate() == 0)

            let wrong = try await ServeCommandTests.Served.start(common, environment: environment(moto, secret: "wrong"), in: directory)
            let answer = try await wrong.get("/unsafe/rs:fit:32:32/plain/s3://serve-photos/cat.png")
            #expect(answer.status == 502)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("S3 settings"))
            #expect(try await wrong.terminate() == 0)
            let log = try String(contentsOf: wrong.errors, encoding: .utf8)
            #expect(log.contains("SignatureDoesNotMatch"), "\(log)")

            let plain = try await ServeCommandTests.Served.start(["--port", "0", "--allow-unsigned"], environment: Self.cleared, in: directory)
            let off = try await plain.get("/unsafe/plain/s3://serve-photos/cat.png")
            #expect(off.status == 403)
            #expect(String(decoding: off.body, as: UTF8.self).contains("--use-s3"))
            #expect(try await plain.terminate() == 0)

            var noKeys = Self.cleared
            noKeys["WEBIMAGE_USE_S3"] = "1"
            let start = try await CLI.run(["serve", "--port", "0", "--allow-unsigned"], in: directory, environment: noKeys)
            #expect(start.status == 2)
            #expect(start.stderr.contains("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"), "\(start.stderr)")
        }
    }
}
