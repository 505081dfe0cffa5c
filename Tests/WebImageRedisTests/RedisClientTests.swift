import Foundation
import NIOCore
import NIOSSL
import Testing
import WebImage
import WebImageHTTPTesting
import WebImageRedis

/// The client against a real `redis-server` on a free loopback port (skipped loudly without one).
@Suite(.enabled(if: RedisTestServer.isAvailable, "redis-server is not installed"))
struct RedisClientTests {
    @Test func setGetBinarySafe() async throws {
        let server = try await RedisTestServer()
        let client = RedisClient(configuration: server.configuration())
        let bytes = Data((0..<256).map { UInt8($0) } + [13, 10, 0])
        #expect(try await client.send("SET", "bin", bytes) == .simpleString("OK"))
        #expect(try await client.send("GET", "bin").bytes == Array(bytes))
        #expect(try await client.send("GET", "missing").isNull)
        #expect(try await client.send("INCRBY", "n", 5).integer == 5)
        await client.close()
    }

    @Test func errorRepliesThrowRedisError() async throws {
        let server = try await RedisTestServer()
        let client = RedisClient(configuration: server.configuration())
        try await client.send("SET", "s", "text")
        do {
            try await client.send("INCR", "s")
            Issue.record("INCR on a string did not throw")
        } catch let error as WebImageError {
            #expect(error.code == .redisError)
            #expect(error.redisServerError?.prefix == "ERR")
        }
        // The connection is still usable after an error reply.
        #expect(try await client.send("GET", "s").string == "text")
        await client.close()
    }

    @Test func authWithPasswordAndWithUser() async throws {
        let server = try await RedisTestServer(["--requirepass", "s3cret"])
        let anonymous = RedisClient(configuration: server.configuration())
        await #expect(throws: WebImageError.self) { try await anonymous.send("PING") }
        var wrong = server.configuration()
        wrong.password = "nope"
        do {
            try await RedisClient(configuration: wrong).send("PING")
            Issue.record("a wrong password connected")
        } catch let error as WebImageError {
            #expect(error.code == .redisError)
            #expect(error.redisServerError?.prefix == "WRONGPASS")
        }
        let admin = RedisClient(configuration: try RedisConfiguration(url: "redis://:s3cret@127.0.0.1:\(server.port)"))
        #expect(try await admin.send("PING") == .simpleString("PONG"))
        try await admin.send("ACL", "SETUSER", "alice", "on", ">p@ss:word", "~*", "+@all")
        let alice = RedisClient(configuration: try RedisConfiguration(url: "redis://alice:p%40ss%3Aword@127.0.0.1:\(server.port)"))
        #expect(try await alice.send("ACL", "WHOAMI").string == "alice")
        var aliceResp3 = alice.configuration
        aliceResp3.protocolVersion = 3
        #expect(try await RedisClient(configuration: aliceResp3).send("ACL", "WHOAMI").string == "alice")
        await admin.close()
        await alice.close()
    }

    @Test func selectDatabaseFromURL() async throws {
        let server = try await RedisTestServer()
        let db3 = RedisClient(configuration: try RedisConfiguration(url: "redis://127.0.0.1:\(server.port)/3"))
        try await db3.send("SET", "where", "three")
        var single = server.configuration()
        single.maxConnections = 1      // SELECT by hand holds for one connection only
        let db0 = RedisClient(configuration: single)
        #expect(try await db0.send("GET", "where").isNull)
        try await db0.send("SELECT", 3)
        #expect(try await db0.send("GET", "where").string == "three")
        let outOfRange = RedisClient(configuration: try RedisConfiguration(url: "redis://127.0.0.1:\(server.port)/99"))
        await #expect(throws: WebImageError.self) { try await outOfRange.send("PING") }
    }

    /// 1,000 commands in one pipeline, and 1,000 concurrent commands over a one-connection pool:
    /// every reply matched to its command.
    @Test func pipelining() async throws {
        let server = try await RedisTestServer()
        var configuration = server.configuration()
        configuration.maxConnections = 1
        let client = RedisClient(configuration: configuration)
        let replies = try await client.pipeline((0..<1000).map { _ in RedisCommand("INCR", ["counter"]) })
        #expect(replies.map(\.integer) == (1...1000).map { Int64($0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<1000 {
                group.addTask {
                    try await client.send("SET", "k\(index)", "v\(index)")
                    let value = try await client.send("GET", "k\(index)").string
                    if value != "v\(index)" { throw TestServerError("k\(index) read \(value ?? "nil")") }
                }
            }
            try await group.waitForAll()
        }
        let mixed = try await client.pipeline([RedisCommand("GET", ["k7"]), RedisCommand("INCR", ["k7"]), RedisCommand("PING")])
        #expect(mixed[0].string == "v7")
        if case .error = mixed[1] {} else { Issue.record("INCR on text did not come back as an error reply") }
        #expect(mixed[2] == .simpleString("PONG"))
        #expect(try await client.send("INFO", "clients").string?.contains("connected_clients:1") == true)
        await client.close()
    }

    @Test func resp3RepliesAfterHello3() async throws {
        let server = try await RedisTestServer()
        var configuration = server.configuration()
        configuration.protocolVersion = 3
        let client = RedisClient(configuration: configuration)
        try await client.send("HSET", "h", "a", "1", "b", "2")
        guard case .map(let pairs) = try await client.send("HGETALL", "h") else {
            Issue.record("HGETALL did not answer a RESP3 map")
            return
        }
        #expect(Set(pairs.compactMap { $0.key.string }) == ["a", "b"])
        try await client.send("ZADD", "z", "1.5", "m")
        #expect(try await client.send("ZSCORE", "z", "m") == .double(1.5))
        #expect(try await client.send("SISMEMBER", "nothing", "x") == .integer(0))
        #expect(try await client.send("GET", "absent") == .null)
        await client.close()
    }

    /// A killed server gives a typed error; after a restart on the same port the client reconnects.
    @Test func reconnectsAfterRestart() async throws {
        let server = try await RedisTestServer()
        let client = RedisClient(configuration: server.configuration())
        try await client.send("SET", "a", "1")
        server.kill()
        do {
            try await client.send("GET", "a")
            Issue.record("a command to a killed server succeeded")
        } catch let error as WebImageError {
            #expect(error.code == .redisUnavailable, "\(error)")
        }
        // While down: fails at once (refused, or inside the backoff), always typed.
        for _ in 0..<3 {
            await #expect(throws: WebImageError.self) { try await client.send("PING") }
        }
        try await server.start()
        var answered = false
        for _ in 0..<100 where !answered {
            answered = (try? await client.send("PING")) == .simpleString("PONG")
            if !answered { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(answered, "no reconnect after the restart")
        await client.close()
    }

    @Test func commandTimeoutWithDebugSleep() async throws {
        let server = try await RedisTestServer(["--enable-debug-command", "yes"])
        var configuration = server.configuration()
        configuration.commandTimeout = .milliseconds(200)
        configuration.maxConnections = 1
        let client = RedisClient(configuration: configuration)
        #expect(await Self.eventually { try await client.send("PING") } == .simpleString("PONG"))
        do {
            try await client.send("DEBUG", "SLEEP", "3")
            Issue.record("DEBUG SLEEP 1 did not time out")
        } catch let error as WebImageError {
            #expect(error.code == .timedOut, "\(error)")
        }
        // The timed-out connection was dropped; a later command gets a fresh one and its own reply
        // (retried while the server still sleeps).
        #expect(await Self.eventually { try await client.send("ECHO", "after") }?.string == "after")
        await client.close()
    }

    @Test func commandTimeoutOnPausedServer() async throws {
        let server = try await RedisTestServer()
        var configuration = server.configuration()
        configuration.commandTimeout = .milliseconds(200)
        let client = RedisClient(configuration: configuration)
        #expect(await Self.eventually { try await client.send("PING") } == .simpleString("PONG"))
        server.pause()
        do {
            _ = try await client.pipeline([RedisCommand("PING"), RedisCommand("PING")])
            Issue.record("a paused server answered")
        } catch let error as WebImageError {
            #expect(error.code == .timedOut || error.code == .redisUnavailable, "\(error)")
        }
        server.resume()
        var answered = false
        for _ in 0..<100 where !answered {
            answered = (try? await client.send("PING")) == .simpleString("PONG")
            if !answered { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(answered)
        await client.close()
    }
}

extension RedisClientTests {
    /// `body`'s result, retried (up to 10 s) while it fails: short timeouts on a loaded machine.
    static func eventually(_ body: () async throws -> RESPValue) async -> RESPValue? {
        for _ in 0..<200 {
            if let value = try? await body() { return value }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }
}

/// `rediss://`: TLS to a redis-server presenting a certificate made at runtime.
@Suite(.enabled(if: RedisTestServer.isAvailable, "redis-server is not installed"))
struct RedisTLSTests {
    @Test func tlsWithATrustedCertificate() async throws {
        let certificate = try SelfSignedCertificate.make()
        let server = try await RedisTestServer(["--requirepass", "pw"], tls: (certificate.pem, certificate.privateKeyPEM))
        var configuration = try RedisConfiguration(url: "rediss://:pw@127.0.0.1:\(server.port)/1")
        configuration.tls?.trustRoots = .certificates([try NIOSSLCertificate(bytes: certificate.derBytes, format: .der)])
        let client = RedisClient(configuration: configuration)
        try await client.send("SET", "secure", "yes")
        #expect(try await client.send("GET", "secure").string == "yes")
        await client.close()
        // The system's roots do not trust it: a typed failure, not a hang.
        let untrusted = RedisClient(configuration: try RedisConfiguration(url: "rediss://:pw@127.0.0.1:\(server.port)"))
        await #expect(throws: WebImageError.self) { try await untrusted.send("PING") }
        // Plain TCP to a TLS port: a typed failure too.
        var plain = server.configuration()
        plain.commandTimeout = .milliseconds(500)
        await #expect(throws: WebImageError.self) { try await RedisClient(configuration: plain).send("PING") }
    }
}

/// `redis://` URL parsing (no server).
@Suite struct RedisURLTests {
    @Test func parsesEveryPart() throws {
        let full = try RedisConfiguration(url: "redis://user:pa%20ss@cache.internal:6380/4")
        #expect(full.host == "cache.internal" && full.port == 6380 && full.database == 4)
        #expect(full.username == "user" && full.password == "pa ss" && full.tls == nil)
        #expect(full.redactedURL == "redis://user:***@cache.internal:6380/4")
        let passwordOnly = try RedisConfiguration(url: "rediss://:secret@10.0.0.1")
        #expect(passwordOnly.username == nil && passwordOnly.password == "secret" && passwordOnly.port == 6379)
        #expect(passwordOnly.tls != nil)
        let plain = try RedisConfiguration(url: "redis://127.0.0.1:7000")
        #expect(plain.password == nil && plain.database == 0 && plain.port == 7000)
        let ipv6 = try RedisConfiguration(url: "redis://[::1]:7001/2")
        #expect(ipv6.host == "::1" && ipv6.database == 2)
    }

    @Test func rejectsBadURLs() {
        for bad in ["http://127.0.0.1:6379", "redis://", "redis://host:0", "redis://host/db", "redis://host/-1", "not a url"] {
            do {
                _ = try RedisConfiguration(url: bad)
                Issue.record("\(bad) parsed")
            } catch let error as WebImageError {
                #expect(error.code == .invalidURL, "\(bad)")
            } catch {
                Issue.record("\(bad): \(error)")
            }
        }
    }
}
