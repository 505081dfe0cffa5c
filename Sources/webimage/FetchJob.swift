import Foundation
import WebImageKit
import WebImageServer

/// What `fetch` asks of every URL, in a form its concurrent tasks can share.
struct FetchSettings: Sendable {
    var refresh = false
    var cacheOnly = false
    var retryFailed = false
    var noCache = false
    var thumbnail: Int?
    /// Decode the thumbnail as a draft, for a resize after it (`--thumbnail` with `--resize`).
    var draft = false
    /// The pixel limit of sources (`--max-pixels`); nil: the manager's.
    var maxPixels: Int?
    /// What happens to an embedded colour profile (`--colour`).
    var colorPolicy = ColorPolicy.sRGB
    /// What of the source's metadata re-encoded outputs keep (`--metadata`).
    var metadataPolicy = MetadataPolicy.strip
    var transformer: (any ImageTransforming)?
    var format: ImageFormat?
    var encoding = ImageEncodingOptions()
    /// `--format-quality`: the quality of each output format, over `encoding`'s.
    var formatQuality: [ImageFormat: Int] = [:]
    /// Decode while downloading and report the previews (`--progressive`).
    var progressive = false
    /// `--max-bytes`: the budget of lossy outputs (as serve's `mb:`).
    var maxBytes: Int?
    /// `--preset`: the original bytes rendered as the service does (in `format` when given).
    var preset: PresetRendering?
    /// URLs tried in order when a URL fails (`--fallback`).
    var fallbacks: [URL] = []

    /// Whether the decoded image is the original one, so that the original bytes can be written.
    var keepsOriginalBytes: Bool { transformer == nil && thumbnail == nil }

    /// The manager request for one URL string.
    func request(for url: String) -> ImageRequest {
        var request = ImageRequest(string: url)
        request.fallbackURLs = fallbacks
        if refresh { request.options.insert(.refreshCached) }
        if cacheOnly { request.options.insert(.fromCacheOnly) }
        if retryFailed { request.options.insert(.retryFailed) }
        if progressive { request.options.insert(.progressiveLoad) }
        if noCache {
            request.queryCacheType = .none
            request.storeCacheType = .none
            request.originalQueryCacheType = .none
            request.originalStoreCacheType = .none
        }
        if let thumbnail {
            request.thumbnailPixelSize = PixelSize(width: thumbnail, height: thumbnail)
            request.preserveAspectRatio = true
            request.decoding.draft = draft
        }
        request.decoding.maxPixelCount = maxPixels
        request.decoding.colorPolicy = colorPolicy
        request.decoding.metadataPolicy = metadataPolicy
        request.transformer = transformer
        if keepsOriginalBytes { request.options.insert(.queryMemoryData) }
        // The process may exit right after the last response: stores must be on disk by then.
        request.options.insert(.waitStoreCache)
        request.encodeOptions = encoding
        return request
    }

    /// The bytes to write and their format: with a preset, the original bytes rendered as the
    /// service renders them; else ``encoded(_:coders:)``.
    func written(_ response: ImageResponse, coders: any ImageCoding) async throws -> (Data, ImageFormat) {
        guard let preset else { return try encoded(response, coders: coders) }
        guard let data = response.data else {
            throw WebImageError(.badImageData, "the original bytes of \(response.url) are not at hand to render the preset from")
        }
        return try await preset.render(data, format: format)
    }

    /// The bytes to write and their format: the original bytes unless a resize, a thumbnail or
    /// another format was asked for (or the original bytes are not at hand).
    func encoded(_ response: ImageResponse, coders: any ImageCoding) throws -> (Data, ImageFormat) {
        let source = response.image.format
        let target = format ?? source
        let sameFormat = target == source || (target == .png && source == .apng)
        // The image was decoded from these very bytes, so its format is theirs.
        if keepsOriginalBytes, sameFormat, let data = response.data, data.count <= maxBytes ?? .max { return (data, source) }
        let written = coders.canEncode(target) ? target : .png
        return (try coders.encode(response.image, as: written, options: encoding.with(quality: formatQuality[written]).budgeted(maxBytes: maxBytes, for: written)), written)
    }
}

/// Loads one URL of a `fetch` run, reports its progress and writes its file.
struct FetchJob: Sendable {
    let settings: FetchSettings
    let session: CommandSession
    let display: ProgressDisplay
    let files: OutputFiles

    func fetch(_ url: String, index: Int) async -> ItemReport {
        let start = ContinuousClock.now
        let task = session.manager.task(for: settings.request(for: url))
        display.started(index, url: url, label: Self.label(for: url))
        let watcher = Task {
            for await progress in task.progress {
                display.progress(index, url: url, received: progress.receivedBytes, expected: progress.expectedBytes)
            }
        }
        defer { watcher.cancel() }
        let previewWatcher = Task {
            for await preview in task.previewUpdates {
                display.preview(
                    index, url: url, size: preview.image.pixelSize, received: preview.receivedBytes,
                    expected: preview.expectedBytes)
            }
        }
        defer { previewWatcher.cancel() }
        do {
            let response = try await task.response
            // The previews end with the task: print them all before the result.
            await previewWatcher.value
            let (data, written) = try await settings.written(response, coders: session.manager.configuration.coders)
            let file = try files.write(data, for: response.url, format: written)
            return .finished(
                url: url, response: response, bytes: data.count, format: written, elapsed: .now - start, file: file)
        } catch {
            await previewWatcher.value
            return .failed(url: url, error: error, elapsed: .now - start)
        }
    }

    /// The name a URL goes by in the live display: its last path component, else its host.
    static func label(for url: String) -> String {
        guard let parsed = URL(string: url), parsed.scheme?.lowercased() != "data" else { return String(url.prefix(24)) }
        let last = parsed.lastPathComponent
        return last.isEmpty || last == "/" ? (parsed.host ?? url) : last
    }
}
