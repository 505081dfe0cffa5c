import Foundation
import WebImage

extension ImageService {
    /// Whether `failure` is the source's (it could not be fetched, or is not an image) rather than
    /// the request's (options, signature, overload): only those are answered with the fallback.
    static func fallsBack(_ failure: StagedError) -> Bool {
        switch failure.stage {
        case .parse: false
        case .fetch: failure.error.code != .overloaded && failure.error.code != .cancelled
        case .process: [.badImageData, .unsupportedFormat, .decodingFailed, .invalidDownloadContentType].contains(failure.error.code)
        }
    }

    /// The fallback image made with the options and output format `path` asks for, through the
    /// caches and jobs as any result (keyed by the fallback's source), or its bytes for `raw:1`;
    /// nil without one.
    func fallbackImage(path: Substring, accept: String?) async throws(StagedError) -> RenderedImage? {
        guard let fallbackSource else { return nil }
        let (options, _, output) = try parse(path: path, accept: accept)
        if options.raw { return try await rawImage(fallbackSource) }
        let watermark = try await watermarkImage(for: options)
        let key = resultKey(source: fallbackSource, options: options, output: output, watermark: watermark)
        if let hit = memory.value(forKey: key) { return hit }
        let limit = configuration.limits.requestTimeout
        do {
            return try await withDeadline(limit, timeout: { WebImageError(.timedOut, "the fallback image took longer than \(limit) to make") }) {
                try await self.jobs.value(for: key) { try await self.produce(key: key, options: options, source: fallbackSource, output: output, watermark: watermark)
                }
            }
        } catch let error as StagedError {
            throw error
        } catch {
            throw StagedError(error, stage: .process)
        }
    }
}
