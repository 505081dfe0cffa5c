import Foundation
import WebImage

extension ImageService {
    /// `raw:1`: the source's bytes as they are, fetched like any source (the byte limit, the SSRF
    /// guard on every hop, one download per URL, the caches of originals), never decoded, and
    /// without a processing slot (nothing is processed).
    func rawImage(_ source: ImageSource) async throws(StagedError) -> RenderedImage {
        let limit = configuration.limits.requestTimeout
        do {
            let original = try await withDeadline(limit, timeout: { WebImageError(.timedOut, "the source took longer than \(limit) to fetch") }) {
                try await self.metrics.measure("fetch") { try await self.fetcher.fetch(source) }
            }
            return Self.raw(original, source: source)
        } catch let error as StagedError {
            throw error
        } catch {
            throw StagedError(error, stage: .fetch)
        }
    }

    /// The answer of `raw:1` for `original`: its bytes, the type its magic bytes tell (else
    /// `application/octet-stream`), an ETag from its validator.
    static func raw(_ original: SourceBytes, source: ImageSource) -> RenderedImage {
        RenderedImage(
            data: original.data, contentType: ImageFormat.detect(in: original.data).mimeType,
            etag: etag(validator: original.validator, key: "raw:" + source.url.absoluteString), lastModified: original.lastModified,
            negotiated: false)
    }
}
