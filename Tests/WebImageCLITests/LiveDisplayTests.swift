import Foundation
import Testing
import WebImageHTTPTesting

#if canImport(Glibc)
import Glibc
#endif

@Suite("webimage's live display on a pseudo-terminal", .timeLimit(.minutes(2)))
struct LiveDisplayTests {
    @Test func barsAreDrawnInPlaceOnATerminalAndResultsGoToStandardOutput() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        let big = try Fixture.png(width: 300, height: 300, seed: 3)
        server.route("/slow-one.png", response: .trickle(big, bytesPerStep: max(1, big.count / 20), interval: .milliseconds(50)))
        server.route("/quick.png", response: .ok(try Fixture.png(seed: 4)))
        server.route("/nope.png", response: .status(404))
        try await withTemporaryDirectory { directory in
            let terminal = try PseudoTerminal()
            let child = try CLI.start(
                ["fetch", server.url("/slow-one.png").absoluteString, server.url("/quick.png").absoluteString,
                 server.url("/nope.png").absoluteString, "--cache-dir", "cache"],
                in: directory, standardError: terminal.follower)
            try terminal.follower.close()
            async let output = terminal.readAll()
            let run = try await child.finish()
            let screen = await output
            let stdout = run.stdout

            #expect(run.status == 1)
            #expect(screen.hasPrefix("\u{1B}[?25l"))
            #expect(screen.hasSuffix("\u{1B}[?25h"))
            #expect(screen.contains("slow-one.png"))
            #expect(screen.contains("%"))
            #expect(screen.contains("█"))
            #expect(screen.contains("/3 done"))
            #expect(screen.contains("\u{1B}[J"))
            #expect(screen.contains("webimage: error: ") && screen.contains("404"))
            // Results on the pipe: no escape codes, a ✓ per success and the summary.
            #expect(!stdout.contains("\u{1B}"))
            #expect(stdout.split(separator: "\n").filter { $0.hasPrefix("✓ ") }.count == 2)
            #expect(stdout.contains("2 of 3 succeeded, 1 failed"))
        }
    }
}

/// A pseudo-terminal pair: the child writes to `follower`; the test reads the leader.
struct PseudoTerminal {
    let leader: Int32
    let follower: FileHandle

    init() throws {
        // glibc declares these only under _XOPEN_SOURCE, which the Glibc module does not set.
        let posixOpenpt = try Self.function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        let grantpt = try Self.function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        let unlockpt = try Self.function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        let ptsname = try Self.function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        // Close-on-exec, so that children of other tests running at once never hold the terminal open.
        let leader = posixOpenpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard leader >= 0, grantpt(leader) == 0, unlockpt(leader) == 0, let name = ptsname(leader) else {
            throw CocoaError(.fileNoSuchFile)
        }
        self.leader = leader
        let descriptor = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError(.fileNoSuchFile) }
        var size = winsize(ws_row: 40, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        _ = withUnsafeMutablePointer(to: &size) { ioctl(leader, UInt(TIOCSWINSZ), $0) }
        follower = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    private static func function<F>(_ name: String, as type: F.Type) throws -> F {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { throw CocoaError(.executableLoad) }
        return unsafeBitCast(symbol, to: type)
    }

    /// Everything written until every follower copy is closed.
    func readAll() async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var data = Data()
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = read(leader, &buffer, buffer.count)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    data.append(buffer, count: count)
                }
                close(leader)
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
    }
}
