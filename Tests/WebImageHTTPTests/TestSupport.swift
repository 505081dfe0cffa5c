import Foundation
import Synchronization
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

/// Deterministic bytes: `count` of them, different for each `seed`.
func testBytes(_ count: Int, seed: Int = 0) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 7 &+ 3) })
}

/// Runs `body` with a fresh loopback server and loader, and shuts both down afterwards.
func withServerAndLoader(
    _ configure: (inout HTTPImageLoaderConfiguration) -> Void = { _ in },
    _ body: (LoopbackHTTPServer, HTTPImageLoader) async throws -> Void
) async throws {
    try await valueWithServerAndLoader(configure, body)
}

/// Runs `body` with a fresh loopback server and loader, shuts both down and returns its value.
func valueWithServerAndLoader<T>(
    _ configure: (inout HTTPImageLoaderConfiguration) -> Void = { _ in },
    _ body: (LoopbackHTTPServer, HTTPImageLoader) async throws -> T
) async throws -> T {
    try await valueWithServerAndLoader(tls: nil, configuring: { configuration, _ in configure(&configuration) }, body)
}

/// Runs `body` with a fresh loopback server (HTTPS with `tls`) and a loader whose configuration
/// `configure` sets knowing the server, shuts both down and returns its value.
func valueWithServerAndLoader<T>(
    tls: LoopbackHTTPServer.TLSMode?,
    configuring configure: (inout HTTPImageLoaderConfiguration, LoopbackHTTPServer) -> Void,
    _ body: (LoopbackHTTPServer, HTTPImageLoader) async throws -> T
) async throws -> T {
    let server = try await LoopbackHTTPServer.start(tls: tls)
    var configuration = HTTPImageLoaderConfiguration()
    // Gated responses wait for the test body's turn, which on a loaded 2-core machine can outlast
    // the 15 s default read (idle) timeout. Timeout tests set their own.
    configuration.timeout = .seconds(300)
    configuration.readTimeout = .seconds(300)
    configure(&configuration, server)
    let loader = HTTPImageLoader(configuration: configuration)
    do {
        let result = try await body(server, loader)
        try await loader.shutdown()
        await server.shutdown()
        return result
    } catch {
        try? await loader.shutdown()
        await server.shutdown()
        throw error
    }
}

/// The error a load ends with, or nil if it succeeded.
func loadError(_ task: ImageLoad.Task) async -> WebImageError? {
    do {
        _ = try await task.result()
        return nil
    } catch let error as WebImageError {
        return error
    } catch {
        return WebImageError(.invalidDownloadResponse, "unexpected error type: \(error)")
    }
}

/// Every event of a load, and its result.
func collectEvents(_ task: ImageLoad.Task) async throws -> (events: [ImageLoad.Event], result: ImageLoad.Result?) {
    var events: [ImageLoad.Event] = []
    var result: ImageLoad.Result?
    for try await event in task.events {
        events.append(event)
        if case .finished(let finished) = event { result = finished }
    }
    return (events, result)
}

/// The progress events among `events`.
func progressEvents(_ events: [ImageLoad.Event]) -> [ImageLoad.Progress] {
    events.compactMap { if case .progress(let p) = $0 { p } else { nil } }
}

/// A response that waits at `gate` before its body.
func parked(_ data: Data, at gate: TestGate, contentType: String = "image/png") -> TestResponse {
    TestResponse(status: 200, headers: [("Content-Type", contentType)], body: [.wait(gate)] + TestResponse.steps(data))
}

/// Strings appended from any task.
final class LockedValues: Sendable {
    private let state = Mutex<[String]>([])
    func append(_ value: String) { state.withLock { $0.append(value) } }
    var values: [String] { state.withLock { $0 } }
}
