// Manager benchmarks, a plain release executable:
//   swift run -c release webimage-manager-bench [--images 1000]
// 1. memory-hit latency through ImageManager.image(for:) (median of batch means, µs per call);
// 2. disk-hit throughput (a new manager, so every hit reads and decodes from disk);
// 3. N small PNGs end to end from the loopback server (download + decode + store) beside the
//    HTTP loader alone on the same URLs.
import Foundation
import WebImageHTTPTesting
import WebImageKit

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func seconds(_ duration: Duration) -> Double {
    let (s, atto) = duration.components
    return Double(s) + Double(atto) / 1e18
}

let imageCount = CommandLine.arguments.firstIndex(of: "--images").flatMap { Int(CommandLine.arguments[$0 + 1]) } ?? 1000
let clock = ContinuousClock()
let coders = ImageCodersManager.standard()
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-manager-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }

func makeManager(loader: any ImageLoading, directory: URL) throws -> ImageManager {
    let disk = try DiskCache(configuration: DiskCacheConfiguration(directory: directory, sweepInterval: nil, synchronousWrites: false))
    let cache = ImageCache(memory: [MemoryCache()], data: [disk], decoder: coders)
    return ImageManager(configuration: ImageManager.Configuration(imageCache: cache, loader: loader, coders: coders))
}

func smallPNG(_ index: Int) throws -> Data {
    var pixels = PixelBuffer(width: 32, height: 32, alphaMode: .premultiplied, fill: RGBA8(r: 10, g: 20, b: 30))
    pixels[index % 32, (index / 32) % 32] = RGBA8(r: UInt8(index % 256), g: UInt8((index / 256) % 256), b: 7)
    return try coders.encode(Image(pixels: pixels, format: .png), as: .png, options: ImageEncodingOptions())
}

let server = try await LoopbackHTTPServer.start()
var httpConfiguration = HTTPImageLoaderConfiguration()
httpConfiguration.maximumConcurrentDownloads = 16
let http = HTTPImageLoader(configuration: httpConfiguration)
let loaders = ImageLoadersManager.standard(http: http)
let urls = try (0..<imageCount).map { index -> URL in
    server.route("/i\(index).png", response: .ok(try smallPNG(index)))
    return server.url("/i\(index).png")
}

// 1. Memory hits: from the main actor (top-level code) and from a task on the global executor.
func memoryHitBatches(_ manager: ImageManager, _ request: ImageRequest) async throws -> Double {
    var batchMeans: [Double] = []
    let batch = 10_000
    for _ in 0..<50 {
        let start = clock.now
        for _ in 0..<batch {
            let response = try await manager.image(for: request)
            precondition(response.cacheType == .memory)
        }
        batchMeans.append(seconds(clock.now - start) / Double(batch) * 1e6)
    }
    return median(batchMeans)
}

do {
    let manager = try makeManager(loader: loaders, directory: directory.appendingPathComponent("memory"))
    let request = ImageRequest(url: urls[0])
    _ = try await manager.image(for: request)
    let onMain = try await memoryHitBatches(manager, request)
    let onPool = try await Task.detached { try await memoryHitBatches(manager, request) }.value
    var syncMeans: [Double] = []
    for _ in 0..<50 {
        let start = clock.now
        for _ in 0..<10_000 { precondition(manager.cachedImage(for: request) != nil) }
        syncMeans.append(seconds(clock.now - start) / 10_000 * 1e6)
    }
    print(String(format: "memory hit through image(for:): median %.3f µs per call on the main actor, %.3f µs on the pool (50 batches of 10000)", onMain, onPool))
    print(String(format: "memory hit through cachedImage(for:) (synchronous): median %.3f µs per call", median(syncMeans)))
}

// 3. The loader alone, then end to end through the manager (download + decode + memory store;
//    disk writes in the background), then end to end waiting for the disk store, on fresh URLs.
let e2eDirectory = directory.appendingPathComponent("e2e")
let waitedURLs = try (0..<imageCount).map { index -> URL in
    server.route("/w\(index).png", response: .ok(try smallPNG(index + imageCount)))
    return server.url("/w\(index).png")
}
func timeAll(_ urls: [URL], _ body: @escaping @Sendable (URL) async throws -> Void) async throws -> Double {
    let start = clock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for url in urls { group.addTask { try await body(url) } }
        try await group.waitForAll()
    }
    return seconds(clock.now - start)
}
do {
    let loaderElapsed = try await timeAll(urls) { _ = try await http.load(ImageLoad.Request(url: $0)).result() }
    print(String(format: "%d small PNGs, HTTP loader alone: %.3f s, %.0f images/s", imageCount, loaderElapsed, Double(imageCount) / loaderElapsed))
    let manager = try makeManager(loader: loaders, directory: e2eDirectory)
    let elapsed = try await timeAll(urls) { _ = try await manager.image(for: ImageRequest(url: $0)) }
    print(String(format: "%d small PNGs end to end (download+decode, disk store in background): %.3f s, %.0f images/s", imageCount, elapsed, Double(imageCount) / elapsed))
    let waited = try await timeAll(waitedURLs) {
        _ = try await manager.image(for: ImageRequest(url: $0, options: [.waitStoreCache]))
    }
    print(String(format: "%d small PNGs end to end (download+decode+disk store awaited): %.3f s, %.0f images/s", imageCount, waited, Double(imageCount) / waited))
}

// 2. Disk hits: a new manager over the filled directory (empty memory), every image read and decoded.
do {
    let manager = try makeManager(loader: loaders, directory: e2eDirectory)
    let start = clock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for url in waitedURLs {
            group.addTask {
                let response = try await manager.image(for: ImageRequest(url: url, options: [.fromCacheOnly]))
                precondition(response.cacheType == .disk)
            }
        }
        try await group.waitForAll()
    }
    let elapsed = seconds(clock.now - start)
    print(String(format: "disk hits (read+decode, %d images): %.3f s, %.0f images/s", imageCount, elapsed, Double(imageCount) / elapsed))
}

try await http.shutdown()
await server.shutdown()
