import Crypto
import Foundation
import Logging
import Synchronization
import WebImage
import WebImageDiskCache
import WebImageKit

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
/// image out. Results are looked up in memory, then on disk (and in Redis when configured);
/// identical requests in flight share one job (the core's ``JobRegistry``); new work waits for a
/// processing slot of the core's ``WorkLimiter`` (or is refused when its queue is full) and runs
/// on its blocking executor, never on the threads that serve HTTP. A request that runs out of
/// time leaves its job, and the work stops when no other request waits for it.
final class ImageService: Sendable {
    let configuration: ImageServerConfiguration
    let coders: ImageCodersManager
    let fetcher: SourceFetcher
    let processor: ImageProcessor
    /// Rendered results by result key, costing their bytes plus 256 for the headers.
    let memory: CostLRU<HashedKey, RenderedImage>
    /// The data tier behind memory: the disk cache, the disk and Redis, Redis alone, or none.
    let disk: (any ImageDataCaching)?
    let limiter: WorkLimiter
    let metrics: ServiceMetrics
    let writes: BackgroundWrites
    /// Requests in flight by result key: one job each, however many wait for it.
    let jobs = JobRegistry<String, RenderedImage>()
    /// The presets in force: each request parses with the set it read first, so a reload never
    /// changes a request half-way.
    let presets: Mutex<ProcessingPresets>
    /// The image answered, with the failure's status, when a source fails (``ImageServerConfiguration/fallbackImage``).
    let fallbackSource: ImageSource?
    /// The service's `--watermark`, loaded at start (``loadConfiguredWatermark()``).
    let configuredWatermark = Mutex<WatermarkImage?>(nil)
    /// Removes a source's original and results from every tier (a purge, a changed source).
    let purger: SourcePurger

    init(
        configuration: ImageServerConfiguration, coders: ImageCodersManager, loaders: any ImageLoading,
        data disk: (any ImageDataCaching)?, tiers: CacheTiers = CacheTiers(), metrics: ServiceMetrics, logger: Logger,
        presets: ProcessingPresets
    ) {
        self.configuration = configuration
        self.presets = Mutex(presets)
        fallbackSource = configuration.fallbackImage.map { $0.isFileURL ? .local($0) : .remote($0) }
        self.coders = coders
        self.disk = disk
        self.metrics = metrics
        writes = BackgroundWrites(limit: max(8, configuration.concurrency * 4), metrics: metrics, logger: logger)
        // A quarter of the memory budget keeps originals, so results in other sizes skip the origin;
        // in each cache an entry over a quarter of its budget is not kept.
        let originalsBudget = configuration.memoryCacheBytes / 4
        let originals = CostLRU<HashedKey, SourceBytes>(costLimit: originalsBudget, entryCostLimit: originalsBudget / 4)
        let resultsBudget = configuration.memoryCacheBytes - originalsBudget
        let results = CostLRU<HashedKey, RenderedImage>(costLimit: resultsBudget, entryCostLimit: resultsBudget / 4)
        memory = results
        let purger = SourcePurger(results: results, originals: originals, disk: tiers.disk, redis: tiers.redis)
        self.purger = purger
        // A source whose revalidation brought another validator: its results are dropped before
        // any is made of the new bytes.
        fetcher = SourceFetcher(
            loaders: loaders, memory: originals, disk: disk, limits: configuration.limits, metrics: metrics, writes: writes,
            failedSourceTTL: configuration.failedSourceTTL, clock: configuration.clock,
            onReplaced: { url in
                do {
                    _ = try await purger.purge(url, original: false)
                } catch {
                    logger.warning("the results of \(url.absoluteString), which changed, could not all be dropped: \(error)")
                }
            })
        processor = ImageProcessor(
            coders: coders, limits: configuration.limits, defaultQuality: configuration.defaultQuality,
            formatQuality: configuration.formatQuality, metrics: metrics)
        // Memory goes back to the system one second after the last image is made.
        limiter = WorkLimiter(
            limit: configuration.concurrency, memoryBudget: configuration.memoryBudget, queueLimit: configuration.queueLimit,
            reclaimsMemoryAfterIdle: .seconds(1))
    }

    /// What a `HEAD` or a conditional `GET` needs to be answered without rendering.
    struct KnownResult: Sendable {
        var etag: String
        var contentType: String
        var lastModified: String?
        var negotiated: Bool
    }

    /// The result's validators when they are known without rendering because the source's bytes
    /// (and so its validator) are at hand. Nil when the result is in memory (the caller answers
    /// with it) or only a render can tell.
    func knownResult(path: Substring, accept: String?) async throws(StagedError) -> KnownResult? {
        let (options, source, output) = try parse(path: path, accept: accept)
        // A watermark's digest is part of the key: only a render (or the memory lookup) can tell.
        if options.watermark != nil { return nil }
        if options.raw {
            guard let original = await fetcher.cached(source) else { return nil }
            let raw = Self.raw(original, source: source)
            return KnownResult(etag: raw.etag, contentType: raw.contentType, lastModified: raw.lastModified, negotiated: false)
        }
        let key = resultKey(source: source, options: options, output: output)
        // A result in memory is answered whole at once, its length included.
        if memory.value(forKey: key) != nil { return nil }
        guard let original = await fetcher.cached(source) else { return nil }
        let sourceFormat = ImageFormat.detect(in: original.data)
        guard sourceFormat != .undefined else { return nil }
        let format = output.resolve(sourceFormat: sourceFormat, canEncode: coders.canEncode)
        return KnownResult(
            etag: Self.etag(validator: original.validator, key: key), contentType: format.mimeType,
            lastModified: original.lastModified, negotiated: options.format == .auto)
    }

    /// The cache key of one result (``CacheKeys/serviceResult(source:options:output:quality:formatQuality:)``),
    /// with the service's default and per-format qualities.
    func resultKey(source: ImageSource, options: ProcessingOptions, output: OutputChoice) -> String {
        Self.resultKey(
            source: source, options: options, output: output, quality: configuration.defaultQuality,
            formatQuality: configuration.formatQuality)
    }

    /// ``resultKey(source:options:output:)`` naming the watermark drawn by its digest, when there is one.
    func resultKey(source: ImageSource, options: ProcessingOptions, output: OutputChoice, watermark: WatermarkImage?) -> String {
        let key = resultKey(source: source, options: options, output: output)
        return watermark.map { key + "|wm=" + $0.digest } ?? key
    }

    /// The cache key of one result made with the default `quality` and the per-format `formatQuality`.
    static func resultKey(
        source: ImageSource, options: ProcessingOptions, output: OutputChoice, quality: Int, formatQuality: [ImageFormat: Int] = [:]
    ) -> String {
        CacheKeys.serviceResult(
            source: source.url, options: options.canonicalKey, output: output.key, quality: quality,
            formatQuality: ProcessingOptions.formatQualityKey(formatQuality))
    }

    /// The image `path` (the request target without its query) asks for.
    func image(path: Substring, accept: String?) async throws(StagedError) -> RenderedImage {
        let (options, source, output) = try parse(path: path, accept: accept)
        if options.raw { return try await rawImage(source) }
        let watermark = try await watermarkImage(for: options)
        let key = resultKey(source: source, options: options, output: output, watermark: watermark)
        // A result whose source went stale is answered after its source is revalidated.
        let stale = memory.value(forKey: key)
        if let stale, stale.isFresh(at: configuration.clock.now()) {
            metrics.hit("memory")
            return stale
        }
        let limit = configuration.limits.requestTimeout
        do {
            return try await withDeadline(limit, timeout: { WebImageError(.timedOut, "the image took longer than \(limit) to make") }) {
                try await self.jobs.value(for: key) {
                    try await self.produce(key: key, options: options, source: source, output: output, watermark: watermark, stale: stale)
                }
            }
        } catch let error as StagedError {
            throw error
        } catch {
            throw StagedError(error, stage: .process)
        }
    }

    func parse(path: Substring, accept: String?) throws(StagedError) -> (ProcessingOptions, ImageSource, OutputChoice) {
        do {
            // The signature first: nothing of an unsigned path is parsed or reported.
            try checkSignature(path)
            let parsed = try ImagePath(parsing: path, presetNames: configuration.onlyPresets)
            var options = try ProcessingOptions(
                segments: parsed.optionSegments, maxDimension: configuration.limits.maxResultDimension,
                colorPolicy: configuration.colorPolicy, metadataPolicy: configuration.metadataPolicy,
                presets: presets.withLock { $0 }, onlyPresets: configuration.onlyPresets)
            if let format = parsed.extensionFormat { options.format = .explicit(format) }
            if case .explicit(let format) = options.format, !coders.canEncode(format) {
                throw WebImageError(.invalidProcessingOptions, "the format '\(format)' cannot be encoded by this build")
            }
            let source = try ImageSource(parsed.source, localRoot: configuration.localRoot, s3: configuration.s3)
            let output = OutputChoice.negotiate(
                options.format, accept: accept, canEncode: coders.canEncode, prefersAVIF: configuration.prefersAVIF,
                offersJXL: configuration.offersJXL)
            return (options, source, output)
        } catch {
            throw StagedError(error, stage: .parse)
        }
    }

    /// Checks `/{signature}/{the signed rest}` before anything else of the path is read.
    func checkSignature(_ path: Substring) throws {
        let rest = path.dropFirst()
        guard path.first == "/", let slash = rest.firstIndex(of: "/") else {
            throw WebImageError(.invalidSignature, "the path has no /{signature}/ segment")
        }
        let signature = rest[..<slash]
        if signature == "unsafe" || signature == "_" {
            guard configuration.allowsUnsigned else {
                throw WebImageError(.invalidSignature, "unsigned URLs are refused (the service was not started with --allow-unsigned)")
            }
            return
        }
        guard configuration.signingKeys.contains(where: { $0.verifies(signature, path: rest[slash...]) }) else {
            throw WebImageError(.invalidSignature, "the signature does not match the path")
        }
    }

    /// Disk, then a processing slot, the source and the work; the result goes into both caches.
    /// A `stale` result (or a stale one on disk) is answered again, fresh, when its revalidated
    /// source has the validator it was made from.
    func produce(
        key: String, options: ProcessingOptions, source: ImageSource, output: OutputChoice, watermark: WatermarkImage? = nil,
        stale: RenderedImage? = nil
    ) async throws -> RenderedImage {
        var stale = stale
        if let disk, let entry = try? await disk.entry(forKey: key), var rendered = RenderedImage(archived: entry.data) {
            rendered.freshUntil = entry.metadata.freshUntil(shared: true)
            if rendered.isFresh(at: configuration.clock.now()) {
                metrics.hit("disk")
                memory.set(rendered, forKey: key, cost: rendered.memoryCost)
                return rendered
            }
            stale = rendered
        }
        if let stale {
            do {
                if let kept = try await keepIfCurrent(stale, key: key, source: source) { return kept }
            } catch {
                throw StagedError(error, stage: .fetch)
            }
        }
        metrics.cacheMisses.increment()
        let start = ContinuousClock.now
        defer { metrics.record("total", ContinuousClock.now - start) }
        // The source (downloads are bounded by the loader), then the plan from its header, then
        // a processing slot weighted by the plan's estimated peak memory.
        let original: SourceBytes
        do {
            original = try await metrics.measure("fetch") { try await fetcher.fetch(source) }
        } catch {
            throw StagedError(error, stage: .fetch)
        }
        let encoded: (data: Data, format: ImageFormat)
        do {
            let prepared = try await withTaskExecutorPreference(limiter.executor) {
                try processor.prepare(original.data, options: options, output: output, watermark: watermark?.data)
            }
            metrics.queueDepth.record(limiter.queued + 1)
            encoded = try await limiter.withSlot(weight: prepared.estimatedPeakBytes) {
                metrics.queueDepth.record(limiter.queued)
                metrics.processing.record(limiter.running)
                defer { metrics.processing.record(limiter.running - 1) }
                return try await processor.render(prepared)
            }
        } catch let error as WebImageError where error.code == .overloaded {
            metrics.overloadRefusals.increment()
            throw StagedError(
                WebImageError(
                    .overloaded, "\(limiter.limit) images are being processed and \(limiter.queueLimit ?? 0) wait; try again shortly"),
                stage: .process)
        } catch {
            throw StagedError(error, stage: .process)
        }
        let rendered = RenderedImage(
            data: encoded.data, contentType: encoded.format.mimeType,
            etag: Self.etag(validator: original.validator, key: key), lastModified: original.lastModified,
            negotiated: options.format == .auto, freshUntil: original.freshUntil)
        store(rendered, forKey: key)
        return rendered
    }

    /// Puts `rendered` in memory and (in the background) in the data tier, whose entry carries
    /// its ETag and, as `Expires`, when its source stops being fresh: any node reading it knows
    /// when to revalidate.
    func store(_ rendered: RenderedImage, forKey key: String) {
        memory.set(rendered, forKey: key, cost: rendered.memoryCost)
        guard let disk else { return }
        var metadata = CacheEntryMetadata(contentType: rendered.contentType)
        metadata.http.etag = rendered.etag
        if let freshUntil = rendered.freshUntil {
            metadata.http.expires = HTTPDate.format(freshUntil)
            metadata.http.date = HTTPDate.format(configuration.clock.now())
        }
        let archived = rendered.archived
        writes.submit { [metadata] in try await disk.setData(archived, forKey: key, metadata: metadata) }
    }

    /// `stale`, fresh again, when its source (revalidated by the fetch when stale) still has the
    /// validator it was made from; nil when the source changed (the result is made again).
    private func keepIfCurrent(_ stale: RenderedImage, key: String, source: ImageSource) async throws -> RenderedImage? {
        let original = try await metrics.measure("fetch") { try await fetcher.fetch(source) }
        guard Self.etag(validator: original.validator, key: key) == stale.etag else { return nil }
        var kept = stale
        kept.freshUntil = original.freshUntil
        store(kept, forKey: key)
        metrics.hit("revalidated")
        return kept
    }

    /// A strong ETag from the source's validator and everything that shapes the result.
    static func etag(validator: String, key: String) -> String {
        let digest = SHA256.hash(data: Data((validator + "\n" + key).utf8))
        return "\"" + digest.prefix(16).hexString + "\""
    }
}
