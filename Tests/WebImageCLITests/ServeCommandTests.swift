import Crypto
import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting
import WebImageTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// `webimage serve` as a script starts it: settings from flags and the environment, the bound
/// port as a JSON line on standard output, SIGTERM for a graceful exit.
@Suite("webimage serve", .serialized)
struct ServeCommandTests {
    /// A running `webimage serve` child and the port it printed.
    struct Served {
        let process: Process
        let port: Int
        let output: URL
        let errors: URL

        static func start(_ arguments: [String], environment extra: [String: String] = [:], in directory: URL) async throws -> Served {
            let process = Process()
            process.executableURL = try BuiltProducts.executable(named: "webimage")
            process.arguments = ["serve"] + arguments
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WEBIMAGE_") }
            environment.merge(extra) { $1 }
            process.environment = environment
            let output = directory.appendingPathComponent("serve-\(UUID().uuidString).out")
            let errors = directory.appendingPathComponent("serve-\(UUID().uuidString).err")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline, process.isRunning {
                let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                if let line = text.split(separator: "\n").first,
                    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let port = object["port"] as? Int
                {
                    #expect(object["event"] as? String == "listening")
                    return Served(process: process, port: port, output: output, errors: errors)
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            process.terminate()
            let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "serve printed no port: \(stderr)"])
        }

        func get(_ path: String, accept: String? = nil) async throws -> (status: Int, body: Data, contentType: String?) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.setValue(accept, forHTTPHeaderField: "Accept")
            let (data, response) = try await ServeMemoryTests.patientSession.data(for: request)
            let http = response as! HTTPURLResponse
            return (http.statusCode, data, http.value(forHTTPHeaderField: "Content-Type"))
        }

        /// SIGTERM, then the exit status.
        func terminate() async throws -> Int32 {
            kill(process.processIdentifier, SIGTERM)
            let deadline = ContinuousClock.now + .seconds(30)
            while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    @Test("key and salt from the environment, a signed image, access log, SIGTERM exits 0")
    func servesFromEnvironment() async throws {
        try await withTemporaryDirectory { directory in
            let origin = try await LoopbackHTTPServer.start()
            defer { Task { await origin.shutdown() } }
            origin.route("/a.jpg", response: .ok(try Fixture.jpeg(), contentType: "image/jpeg"))
            let served = try await Served.start(
                ["--port", "0", "--allow-host", "127.0.0.1", "--cache-dir", directory.appendingPathComponent("cache").path],
                environment: ["WEBIMAGE_KEY": "6b6579", "WEBIMAGE_SALT": "73616c74", "WEBIMAGE_AUTO_JXL": "1"], in: directory)
            #expect(try await served.get("/health").status == 200)
            // Signed by hand: base64url(HMAC-SHA256(key "key", "salt" + path)).
            let source = origin.url("/a.jpg").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let path = "/rs:fit:64:64/plain/\(source)@png"
            let signature = try Self.sign(path, key: "key", salt: "salt")
            let image = try await served.get("/\(signature)\(path)")
            #expect(image.status == 200)
            #expect(image.contentType == "image/png")
            #expect(try ImageCodersManager.standard().readHeader(image.body).pixelSize == PixelSize(width: 64, height: 40))
            #expect(try await served.get("/unsafe\(path)").status == 403)
            // WEBIMAGE_AUTO_JXL (--auto-jxl) offers JPEG XL to clients that accept it.
            let auto = "/rs:fit:64:64/plain/\(source)"
            let jxl = try await served.get("/\(try Self.sign(auto, key: "key", salt: "salt"))\(auto)", accept: "image/jxl,image/avif,*/*")
            #expect(jxl.status == 200 && jxl.contentType == "image/jxl")
            #expect(try await served.terminate() == 0)
            let log = try String(contentsOf: served.errors, encoding: .utf8)
            #expect(log.contains("GET /health 200"))
        }
    }

    @Test("--allow-unsigned, and bad settings exit 2 naming them")
    func settings() async throws {
        try await withTemporaryDirectory { directory in
            let served = try await Served.start(["--port", "0", "--allow-unsigned", "--no-access-log"], in: directory)
            #expect(try await served.get("/ready").status == 200)
            #expect(try await served.terminate() == 0)

            for (arguments, message) in [
                (["--port", "0"], "--allow-unsigned"),
                (["--key", "zz", "--salt", "00"], "hex"),
                (["--key", "00", "--key", "01", "--salt", "00"], "one --salt for each --key"),
                (["--allow-unsigned", "--quality", "0"], "--quality must be between 1 and 100 (got 0)"),
                // Issue 24, finding 6: every number is range-checked (this one overflowed and crashed).
                (["--allow-unsigned", "--concurrency", "9223372036854775807"], "--concurrency must be between 1 and 1024"),
                (["--allow-unsigned", "--concurrency", "0"], "--concurrency must be between 1 and 1024"),
                (["--allow-unsigned", "--queue=-1"], "--queue must be between 0 and 1000000"),
                (["--allow-unsigned", "--port", "65536"], "--port must be between 0 and 65535"),
                (["--allow-unsigned", "--ttl=-5"], "--ttl must be between 0 and 315360000"),
                (["--allow-unsigned", "--error-ttl", "9223372036854775807"], "--error-ttl must be between"),
                (["--allow-unsigned", "--max-source-pixels", "0"], "--max-source-pixels must be between 1 and"),
                (["--allow-unsigned", "--max-animation-pixels", "9223372036854775807"], "--max-animation-pixels must be between"),
                (["--allow-unsigned", "--max-result-dimension", "70000"], "--max-result-dimension must be between 1 and 65535"),
                (["--allow-unsigned", "--max-source-bytes", "0"], "--max-source-bytes must be between 1 and"),
                (["--allow-unsigned", "--memory-cache", "9999999999G"], "--memory-cache"),
                (["--allow-unsigned", "--timeout", "0"], "--timeout must be between 0.001 and 3600"),
                (["--allow-unsigned", "--timeout", "nan"], "--timeout must be between 0.001 and 3600"),
                (["--allow-unsigned", "--origin-retries", "11"], "--origin-retries must be between 0 and 10"),
                (["--allow-unsigned", "--max-age", "10"], "--max-age"),  // renamed --ttl: an unknown option now
                (["--allow-unsigned", "--fallback-image", "/nonexistent/fallback.png"], "the fallback image /nonexistent/fallback.png is not a readable image"),
                (["--allow-unsigned", "--purge-token", "short"], "--purge-token (WEBIMAGE_PURGE_TOKEN) needs at least 16 characters"),
            ] {
                let run = try await CLI.run(["serve"] + arguments, in: directory)
                #expect(run.status == 2, "\(arguments)")
                #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            }
        }
    }

    /// The service's scheme, computed here with swift-crypto directly.
    static func sign(_ path: String, key: String, salt: String) throws -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data((salt + path).utf8), using: SymmetricKey(data: Data(key.utf8)))
        return Data(mac).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
