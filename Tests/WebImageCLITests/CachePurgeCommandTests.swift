import Foundation
import Testing
import WebImageHTTPTesting

@Suite("webimage cache purge, run as a process", .timeLimit(.minutes(3)))
struct CachePurgeCommandTests {
    @Test func purgeRemovesAURLAndWhatWasMadeOfIt() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        server.route("/p.png", response: .ok(try Fixture.png(seed: 1)))
        server.route("/other.png", response: .ok(try Fixture.png(seed: 2)))
        try await withTemporaryDirectory { directory in
            let url = server.url("/p.png").absoluteString
            for arguments in [[url], [url, "--thumbnail", "16"], [server.url("/other.png").absoluteString]] {
                let fetch = try await CLI.run(["fetch"] + arguments + ["-o", "out", "--cache-dir", "cache"], in: directory)
                #expect(fetch.status == 0, "\(fetch.stderr)")
            }
            let before = try await CLI.run(["cache", "stats", "--cache-dir", "cache", "--json"], in: directory)
            #expect(try before.jsonLines().first?["entries"] as? Int == 3, "the original, its thumbnail, the other")

            let purge = try await CLI.run(["cache", "purge", url, "--cache-dir", "cache"], in: directory)
            #expect(purge.status == 0, "\(purge.stderr)")
            #expect(purge.stdout == "removed 2 entries\n")
            let after = try await CLI.run(["cache", "stats", "--cache-dir", "cache", "--json"], in: directory)
            #expect(try after.jsonLines().first?["entries"] as? Int == 1)
            let again = try await CLI.run(["cache", "purge", url, "--cache-dir", "cache"], in: directory)
            #expect(again.stdout == "removed 0 entries\n")
            #expect(try await CLI.run(["cache", "purge", "not a url", "--cache-dir", "cache"], in: directory).status == 2)
        }
    }
}
