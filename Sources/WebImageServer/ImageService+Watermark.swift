import Foundation
import WebImage

extension ImageService {
    /// The watermark image a request with `options` draws: nil without `wm`; `wmu`'s when given
    /// (``watermarkSource(_:)``, fetched like a source and kept with the originals), else the
    /// service's `--watermark`. A `wm` with neither is the request's error (`400`).
    func watermarkImage(for options: ProcessingOptions) async throws(StagedError) -> WatermarkImage? {
        guard options.watermark != nil else { return nil }
        guard let text = options.watermarkURL else {
            guard let configured = configuredWatermark.withLock({ $0 }) else {
                throw StagedError(
                    WebImageError(.invalidProcessingOptions, "wm needs a watermark image: the service has no --watermark and the URL no wmu"),
                    stage: .parse)
            }
            return configured
        }
        let source: ImageSource
        do {
            source = try watermarkSource(text)
        } catch {
            throw StagedError(error, stage: .parse)
        }
        do {
            return WatermarkImage(data: try await metrics.measure("fetch") { try await fetcher.fetch(source) }.data)
        } catch {
            throw StagedError(error, stage: .fetch)
        }
    }

    /// Where `wmu`'s URL may come from: `local:///path` under ``ImageServerConfiguration/watermarkDirectory``,
    /// or http(s) from a host of ``ImageServerConfiguration/watermarkAllowHosts`` (and through the
    /// SSRF guard, as every fetch). Anything else is refused (`403`).
    func watermarkSource(_ text: String) throws -> ImageSource {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw WebImageError(.invalidURL, "the watermark URL '\(text)' is not a URL")
        }
        switch scheme {
        case "local":
            guard let directory = configuration.watermarkDirectory else {
                throw WebImageError(.sourceRefused, "local:// watermarks are not enabled (start with --watermark-dir DIR)")
            }
            return .local(try ImageSource.resolve(localPath: url.path, text: text, under: directory))
        case "http", "https":
            guard let host = url.host?.lowercased(), configuration.watermarkAllowHosts.contains(host) else {
                throw WebImageError(.sourceRefused, "the watermark host '\(url.host ?? "")' is not allowed (--watermark-allow-host)")
            }
            return .remote(url)
        default:
            throw WebImageError(.sourceRefused, "the watermark scheme '\(scheme)' is not fetched (local, http, https only)")
        }
    }

    /// Loads ``ImageServerConfiguration/watermark`` (a file, or a URL fetched through the SSRF
    /// guard) and checks that it decodes; throws `invalidServerConfiguration` naming it.
    func loadConfiguredWatermark() async throws {
        guard let url = configuration.watermark else { return }
        let data: Data
        do {
            data = url.isFileURL ? try Data(contentsOf: url) : try await fetcher.fetch(.remote(url)).data
        } catch {
            throw WebImageError(
                .invalidServerConfiguration,
                "the watermark \(url.isFileURL ? url.path : url.absoluteString) cannot be read: \((error as? WebImageError)?.message ?? error.localizedDescription)")
        }
        let image = try WatermarkImage(checking: data, origin: url.isFileURL ? url.path : url.absoluteString, coders: coders)
        configuredWatermark.withLock { $0 = image }
    }
}
