import Crypto
import Foundation
import Synchronization
import WebImage
import WebImageDiskCache

/// A failure and the stage it happened in (the stage decides some statuses).
struct StagedError: Error {
    var error: WebImageError
    var stage: RequestStage

    init(_ error: any Error, stage: RequestStage) {
        self.error = WebImageError.wrapping(error, code: .badImageData, "\(error)")
        self.stage = stage
    }
}

/// The image side of the service, free of HTTP: a path and an `Accept` value in, a rendered
/// image out. Results are looked up in memory, then on disk (and in Redis when configured); identical requests in flight share
/// one task; new work waits for a processing slot (or is refused when the queue is full) and runs
/// under the request deadline.
final class ImageService: Sendable {
    let configuration: ImageServerConfiguration
    let coders: ImageCodersManager
    let fetcher: SourceFetcher
    let processor: ImageProcessor
    let memory: MemoryLRU<RenderedImage>
    /// The data tier behind memory: the disk cache, the disk and Redis, Redis alone, or none.
    let disk: (any ImageDataCaching)?
    let admission: AdmissionControl
    let metrics: ServiceMetrics
    let writes: BackgroundWrites
    private let inFlight = Mutex<[String: Task<RenderedImage, any Error>]>([:])

    init(
        configuration: ImageServerConfiguration, coders: ImageCodersManager, loaders: any ImageLoading,
        data disk: (any ImageDataCaching)?, metrics: ServiceMetrics
    ) {
        self.configuration = configuration
        self.coders = coders
        self.disk = disk
        self.metrics = metrics
        writes = BackgroundWrites(limit: max(8, configuration.concurrency * 4))
        // A quarter of the memory budget keeps originals, so results in other sizes skip the origin.
        let originals = MemoryLRU<SourceBytes>(budget: configuration.memoryCacheBytes / 4) { $0.data.count }
        fetcher = SourceFetcher(loaders: loaders, memory: originals, disk: disk, limits: configuration.limits, metrics: metrics, writes: writes)
        processor = ImageProcessor(coders: coders, limits: configuration.limits, defaultQuality: configuration.defaultQuality, metrics: metrics)
        memory = MemoryLRU(budget: configuration.memoryCacheBytes - configuration.memoryCacheBytes / 4) { $0.data.count + 256 }
        admission = AdmissionControl(concurrency: configuration.concurrency, queueLimit: configuration.queueLimit)
    }

    /// The image `path` (the request target without its query) asks for.
    func image(path: Substring, accept: String?) async throws(StagedError) -> RenderedImage {
        let (options, source, output) = try parse(path: path, accept: accept)
        let key = "result:\(source.key)|\(options.canonicalKey)|\(output.key)|q\(configuration.defaultQuality)"
        if let hit = memory.value(forKey: key) {
            metrics.hit("memory")
            return hit
        }
        let task = inFlight.withLock { tasks in
            if let running = tasks[key] { return running }
            let task = Task { try await self.produce(key: key, options: options, source: source, output: output) }
            tasks[key] = task
            return task
        }
        do {
            return try await Deadline.value(of: task, within: configuration.limits.requestTimeout)
        } catch let error as StagedError {
            throw error
        } catch {
            throw StagedError(error, stage: .process)
        }
    }

    private func parse(path: Substring, accept: String?) throws(StagedError) -> (ProcessingOptions, ImageSource, OutputChoice) {
        do {
            let parsed = try ImagePath(parsing: path)
            try checkSignature(parsed)
            var options = try ProcessingOptions(segments: parsed.optionSegments, maxDimension: configuration.limits.maxResultDimension)
            if let format = parsed.extensionFormat { options.format = .explicit(format) }
            if case .explicit(let format) = options.format, !coders.canEncode(format) {
                throw WebImageError(.invalidProcessingOptions, "the format '\(format)' cannot be encoded by this build")
            }
            let source = try ImageSource(parsed.source, localRoot: configuration.localRoot)
            let output = OutputChoice.negotiate(
                options.format, accept: accept, canEncode: coders.canEncode, prefersAVIF: configuration.prefersAVIF)
            return (options, source, output)
        } catch {
            throw StagedError(error, stage: .parse)
        }
    }

    private func checkSignature(_ path: ImagePath) throws {
        if path.signature == "unsafe" || path.signature == "_" {
            guard configuration.allowsUnsigned else {
                throw WebImageError(.invalidSignature, "unsigned URLs are refused (the service was not started with --allow-unsigned)")
            }
            return
        }
        guard configuration.signingKeys.contains(where: { $0.verifies(path.signature, path: path.signedPart) }) else {
            throw WebImageError(.invalidSignature, "the signature does not match the path")
        }
    }

    /// Disk, then a processing slot, the source and the work; the result goes into both caches.
    private func produce(key: String, options: ProcessingOptions, source: ImageSource, output: OutputChoice) async throws -> RenderedImage {
        defer { _ = inFlight.withLock { $0.removeValue(forKey: key) } }
        if let disk, let entry = try? await disk.entry(forKey: key), let rendered = RenderedImage(archived: entry.data) {
            metrics.hit("disk")
            memory.set(rendered, forKey: key)
            return rendered
        }
        metrics.cacheMisses.increment()
        metrics.queueDepth.record(admission.queued + 1)
        let admitted = await admission.acquire()
        metrics.queueDepth.record(admission.queued)
        guard admitted == .admitted else {
            metrics.overloadRefusals.increment()
            throw StagedError(
                WebImageError(.overloaded, "\(admission.concurrency) images are being processed and \(admission.queueLimit) wait; try again shortly"),
                stage: .process)
        }
        metrics.processing.record(admission.running)
        defer {
            admission.release()
            metrics.processing.record(admission.running)
        }
        let start = ContinuousClock.now
        defer { metrics.record("total", ContinuousClock.now - start) }
        let original: SourceBytes
        do {
            original = try await metrics.measure("fetch") { try await fetcher.fetch(source) }
        } catch {
            throw StagedError(error, stage: .fetch)
        }
        let encoded: (data: Data, format: ImageFormat)
        do {
            encoded = try await processor.render(original.data, options: options, output: output)
        } catch {
            throw StagedError(error, stage: .process)
        }
        let rendered = RenderedImage(
            data: encoded.data, contentType: encoded.format.mimeType,
            etag: Self.etag(validator: original.validator, key: key), lastModified: original.lastModified,
            negotiated: options.format == .auto)
        memory.set(rendered, forKey: key)
        if let disk {
            var metadata = CacheEntryMetadata(contentType: rendered.contentType)
            metadata.http.etag = rendered.etag
            let archived = rendered.archived
            writes.submit { [metadata] in try? await disk.setData(archived, forKey: key, metadata: metadata) }
        }
        return rendered
    }

    /// A strong ETag from the source's validator and everything that shapes the result.
    static func etag(validator: String, key: String) -> String {
        let digest = SHA256.hash(data: Data((validator + "\n" + key).utf8))
        return "\"" + digest.prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
    }
}

/// Waiting for a shared task under one caller's deadline, without cancelling the task (others
/// may be waiting for it, and its result fills the caches).
enum Deadline {
    private final class OneShot<Value: Sendable>: Sendable {
        private let state = Mutex<(done: Bool, continuation: CheckedContinuation<Result<Value, any Error>, Never>?)>((false, nil))

        func install(_ continuation: CheckedContinuation<Result<Value, any Error>, Never>) {
            state.withLock { $0.continuation = continuation }
        }

        func resume(_ result: Result<Value, any Error>) {
            let continuation = state.withLock { state -> CheckedContinuation<Result<Value, any Error>, Never>? in
                guard !state.done, let continuation = state.continuation else { return nil }
                state.done = true
                state.continuation = nil
                return continuation
            }
            continuation?.resume(returning: result)
        }
    }

    static func value<Value: Sendable>(of task: Task<Value, any Error>, within limit: Duration) async throws -> Value {
        let shot = OneShot<Value>()
        var waiter: Task<Void, Never>?
        var timer: Task<Void, Never>?
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, any Error>, Never>) in
            shot.install(continuation)
            waiter = Task { shot.resume(await task.result) }
            timer = Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                shot.resume(.failure(WebImageError(.timedOut, "the image took longer than \(limit) to make")))
            }
        }
        timer?.cancel()
        _ = waiter
        return try result.get()
    }
}
