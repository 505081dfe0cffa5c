import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImageCodecs
import WebImageHTTPTesting
import WebImageTesting

#if canImport(Glibc)
import Glibc
#endif

/// `webimage info --thumbhash`, and the service's `/info` answering the same JSON.
@Suite("webimage info --thumbhash and /info", .serialized)
struct InfoThumbHashTests {
    @Test("a 10000×10000 WebP header costs /info no pixel memory: the service's peak stays far below its 400 MB of pixels")
    func largeHeaderMemory() async throws {
        try await withTemporaryDirectory { directory in
            // A lossless VP8L header declaring 10000×10000, and no image data after it.
            let bits = (UInt32(10_000 - 1) | UInt32(10_000 - 1) << 14).littleEndian
            var chunk = Data([0x2f]) + withUnsafeBytes(of: bits) { Data($0) } + Data(repeating: 0, count: 64)
            if chunk.count % 2 == 1 { chunk.append(0) }
            func le32(_ value: Int) -> Data { withUnsafeBytes(of: UInt32(value).littleEndian) { Data($0) } }
            let webp = Data("RIFF".utf8) + le32(4 + 8 + chunk.count) + Data("WEBP".utf8) + Data("VP8L".utf8) + le32(chunk.count) + chunk
            let root = directory.appendingPathComponent("root")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try webp.write(to: root.appendingPathComponent("big.webp"))
            let (launcher, port, report) = try await ServeMemoryTests.startMeasured(
                ["--port", "0", "--allow-unsigned", "--no-access-log", "--local-root", root.path], in: directory)
            let (data, response) = try await ServeMemoryTests.patientSession.data(
                from: URL(string: "http://127.0.0.1:\(port)/info/unsafe/plain/local:%2F%2F%2Fbig.webp")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let info = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(info["width"] as? Int == 10_000 && info["height"] as? Int == 10_000)
            let statuses = try await ServeMemoryTests.getAll(
                Array(repeating: "/info/unsafe/plain/local:%2F%2F%2Fbig.webp", count: 16), port: port)
            #expect(statuses.allSatisfy { $0 == 200 })
            let peak = try await ServeMemoryTests.stopMeasured(launcher, report: report)
            print("serve /info of a 10000×10000 WebP header: peak \(peak / 1_048_576) MB")
            #expect(peak < 250 * 1_048_576, "peak \(peak / 1_048_576) MB")
        }
    }

    @Test("/info answers webimage info --json's object plus the etag; --thumbhash and th:1 agree")
    func sameJSON() async throws {
        try await withTemporaryDirectory { directory in
            let origin = try await LoopbackHTTPServer.start()
            defer { Task { await origin.shutdown() } }
            let png = try Fixture.png(width: 90, height: 60)
            origin.route("/a.png", response: .ok(png, contentType: "image/png", headers: [("ETag", "\"abc\"")]))
            try png.write(to: directory.appendingPathComponent("a.png"))
            let local = try await CLI.run(["info", "a.png", "--json", "--thumbhash"], in: directory)
            #expect(local.status == 0, "\(local.stderr)")
            var cli = try #require(try local.jsonLines().first)
            #expect(cli["thumbHash"] is String)

            let served = try await ServeCommandTests.Served.start(
                ["--port", "0", "--allow-unsigned", "--allow-host", "127.0.0.1", "--no-access-log"], in: directory)
            let source = origin.url("/a.png").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let answer = try await served.get("/info/unsafe/th:1/plain/\(source)")
            #expect(try await served.terminate() == 0)
            #expect(answer.status == 200)
            var service = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            #expect(service.removeValue(forKey: "etag") as? String == "\"abc\"")
            #expect(service.removeValue(forKey: "file") as? String == origin.url("/a.png").absoluteString)
            #expect(cli.removeValue(forKey: "file") as? String == "a.png")
            func canonical(_ object: [String: Any]) throws -> String {
                String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            }
            #expect(try canonical(service) == canonical(cli))

            let plain = try await CLI.run(["info", "a.png"], in: directory)
            #expect(!plain.stdout.contains("thumbhash"))
            let withHash = try await CLI.run(["info", "a.png", "--thumbhash"], in: directory)
            #expect(withHash.stdout.contains("thumbhash:    \(cli["thumbHash"] as? String ?? "-")"))
        }
    }
}
