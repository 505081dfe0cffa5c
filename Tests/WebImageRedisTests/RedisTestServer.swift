import Foundation
import WebImageHTTPTesting
import WebImageRedis

/// A `redis-server` of a test's own: a free loopback port, a temporary directory, no persistence;
/// stopped, paused (SIGSTOP) and restarted on the same port by the test.
final class RedisTestServer: @unchecked Sendable {  // process handle mutated only by the test's sequential calls
    let port: Int
    let directory: URL
    let extraArguments: [String]
    private var process: Process?

    /// The `redis-server` binary: `$REDIS_SERVER`, else the first on `PATH` or in /usr/bin, /usr/sbin.
    static let binary: String? = {
        if let explicit = ProcessInfo.processInfo.environment["REDIS_SERVER"] { return explicit }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in path + ["/usr/bin", "/usr/sbin", "/usr/local/bin"] {
            let candidate = directory + "/redis-server"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// Whether tests that need a server can run; prints a loud note once when they cannot.
    static let isAvailable: Bool = {
        guard binary != nil else {
            FileHandle.standardError.write(Data("""
                \n*** SKIPPED: redis-server is not installed; the Redis tests need it \
                (scripts/install-system-packages.sh installs it). ***\n\n
                """.utf8))
            return false
        }
        return true
    }()

    /// Starts a server with `arguments` (e.g. `["--requirepass", "pw"]`) and waits until it answers.
    /// With `tls`, the port speaks TLS only, with that certificate and key (PEM).
    init(_ arguments: [String] = [], tls: (certificate: String, key: String)? = nil) async throws {
        port = try FreePort.next()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var arguments = arguments
        if let tls {
            let certificate = directory.appendingPathComponent("server.crt")
            let key = directory.appendingPathComponent("server.key")
            try Data(tls.certificate.utf8).write(to: certificate)
            try Data(tls.key.utf8).write(to: key)
            arguments += [
                "--tls-port", String(port), "--tls-cert-file", certificate.path, "--tls-key-file", key.path,
                "--tls-auth-clients", "no",
            ]
        }
        usesTLS = tls != nil
        extraArguments = arguments
        try await start()
    }

    /// Whether the port speaks TLS (its plain port is off).
    let usesTLS: Bool

    deinit {
        // SIGKILL: a child of the test process may inherit a signal mask that blocks SIGTERM.
        if let process, process.isRunning {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The server's URL.
    var url: String { "redis://127.0.0.1:\(port)" }

    /// A client configuration for this server, with short reconnect delays for tests. The
    /// command timeout is long enough for a loaded 2-core CI machine (2 s once failed a pipeline
    /// of 1,000 commands there); tests of timeouts set their own.
    func configuration() -> RedisConfiguration {
        var configuration = RedisConfiguration(port: port)
        configuration.commandTimeout = .seconds(15)
        configuration.connectTimeout = .seconds(5)
        configuration.reconnectDelay = .milliseconds(20)
        configuration.maxReconnectDelay = .milliseconds(200)
        return configuration
    }

    /// Starts (or restarts) the server on its port and waits until it accepts connections.
    func start() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary ?? "redis-server")
        process.arguments = [
            "--port", usesTLS ? "0" : String(port), "--bind", "127.0.0.1", "--dir", directory.path, "--save", "",
            "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning", "--protected-mode", "no",
        ] + extraArguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        for _ in 0..<200 {
            if Self.canConnect(port: port) { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw TestServerError("redis-server on port \(port) did not start")
    }

    /// Kills the server (SIGKILL) and waits for it to exit.
    func kill() {
        guard let process else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Freezes the server (SIGSTOP): connections stay open, nothing is answered.
    func pause() { process.map { _ = Foundation.kill($0.processIdentifier, SIGSTOP) } }

    /// Thaws a paused server (SIGCONT).
    func resume() { process.map { _ = Foundation.kill($0.processIdentifier, SIGCONT) } }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func canConnect(port: Int) -> Bool { FreePort.canConnect(port: port) }
}

struct TestServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
