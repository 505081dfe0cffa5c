import Foundation
import WebImage

extension ImageService {
    /// Removes the original of the source `path` names (`/{signature}/plain/{source}`, signed as
    /// an image URL without options) and every result made from it, from memory, the disk and
    /// Redis (``SourcePurger``).
    func purge(path: Substring) async throws(StagedError) -> (source: ImageSource, removed: SourcePurger.Removed) {
        let source: ImageSource
        do {
            try checkSignature(path)
            let parsed = try ImagePath(parsing: path)
            guard parsed.optionSegments.isEmpty else {
                throw WebImageError(.invalidProcessingOptions, "a purge names a source alone: /{signature}/plain/{source}")
            }
            source = try ImageSource(parsed.source, localRoot: configuration.localRoot)
        } catch {
            throw StagedError(error, stage: .parse)
        }
        do {
            let removed = try await purger.purge(source.url, original: true)
            metrics.purgedEntries.increment(by: removed.total)
            return (source, removed)
        } catch {
            throw StagedError(error, stage: .process)
        }
    }
}
