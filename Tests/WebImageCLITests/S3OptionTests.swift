import Foundation
import Testing

/// The `--s3-*` flags and their variables without a store: bad settings are usage errors (exit 2)
/// naming the setting, and `serve` reads `WEBIMAGE_S3_*` and `AWS_*` from the environment.
@Suite("--s3-* settings", .serialized)
struct S3OptionTests {
    /// An access key in AWS's variables, nothing else of S3's.
    static var keys: [String: String] {
        var environment = S3EndToEndTests.cleared
        environment["AWS_ACCESS_KEY_ID"] = "AKIDTEST"
        environment["AWS_SECRET_ACCESS_KEY"] = "secret"
        return environment
    }

    @Test("bad S3 settings exit 2 naming them")
    func badSettings() async throws {
        try await withTemporaryDirectory { directory in
            let serve = ["serve", "--port", "0", "--allow-unsigned"]
            for (arguments, environment, message) in [
                (serve + ["--s3-endpoint", "ftp://127.0.0.1/"], Self.keys, "(--s3-endpoint or WEBIMAGE_S3_ENDPOINT)"),
                (serve + ["--s3-allow-bucket", "Bad_Bucket"], Self.keys, "'Bad_Bucket' is not an S3 bucket name (--s3-allow-bucket"),
                (serve + ["--use-s3", "--s3-region", "not a region"], Self.keys, "is not an AWS region name (--s3-region or AWS_REGION)"),
                (serve + ["--use-s3", "--s3-access-key-id", "AKIDTEST"], S3EndToEndTests.cleared, "without its secret"),
                (["fetch", "s3://photos/a.png", "--s3-secret-access-key", "secret"], S3EndToEndTests.cleared, "without its ID"),
            ] {
                let run = try await CLI.run(arguments, in: directory, environment: environment)
                #expect(run.status == 2, "\(arguments)")
                #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            }
        }
    }

    @Test("serve takes the endpoint, the allowlist and the keys from WEBIMAGE_S3_* and AWS_*")
    func environment() async throws {
        try await withTemporaryDirectory { directory in
            var environment = Self.keys
            environment["WEBIMAGE_S3_ENDPOINT"] = "http://127.0.0.1:9"
            environment["WEBIMAGE_S3_ALLOW_BUCKET"] = "photos, archive"
            let served = try await ServeCommandTests.Served.start(
                ["--port", "0", "--allow-unsigned", "--no-access-log"], environment: environment, in: directory)
            let refused = try await served.get("/unsafe/rs:fit:32:32/plain/s3://other/a.png")
            #expect(refused.status == 403)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("(--s3-allow-bucket or WEBIMAGE_S3_ALLOW_BUCKET)"))
            // An allowed bucket goes to the endpoint (nothing listens on port 9): 502, not 403.
            #expect(try await served.get("/unsafe/rs:fit:32:32/plain/s3://archive/a.png").status == 502)
            #expect(try await served.terminate() == 0)
        }
    }
}
