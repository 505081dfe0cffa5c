import Foundation
import WebImage

extension ImageService {
    /// What `/info/{signature}/[th:1/]plain/{source}` answers: the source's header facts
    /// (``ImageInfo``, as `webimage info --json`) and its validator, read without decoding a pixel;
    /// with `th:1` (`thumbhash:1`) also a ThumbHash, from a thumbnail decode within 100×100 that
    /// waits for a processing slot like any image. `path` is the target after `/info`; its
    /// signature covers what follows the signature segment, as for images.
    func info(path: Substring) async throws(StagedError) -> ImageInfo {
        let (source, text, wantsThumbHash) = try parseInfo(path: path)
        let limit = configuration.limits.requestTimeout
        do {
            return try await withDeadline(limit, timeout: { WebImageError(.timedOut, "the info took longer than \(limit) to make") }) {
                try await self.describe(source, text: text, thumbHash: wantsThumbHash)
            }
        } catch let error as StagedError {
            throw error
        } catch {
            throw StagedError(error, stage: .process)
        }
    }

    private func parseInfo(path: Substring) throws(StagedError) -> (ImageSource, String, Bool) {
        do {
            try checkSignature(path)
            let parsed = try ImagePath(parsing: path)
            var wantsThumbHash = false
            for segment in parsed.optionSegments {
                var reader = OptionArguments(segment: segment)
                guard reader.name == "th" || reader.name == "thumbhash" else {
                    throw WebImageError(.invalidProcessingOptions, "unknown info option '\(reader.name)' (th:1 asks for a ThumbHash)")
                }
                wantsThumbHash = try reader.bool()
                try reader.finish()
            }
            return (try ImageSource(parsed.source, localRoot: configuration.localRoot, s3: configuration.s3), parsed.source, wantsThumbHash)
        } catch {
            throw StagedError(error, stage: .parse)
        }
    }

    private func describe(_ source: ImageSource, text: String, thumbHash: Bool) async throws -> ImageInfo {
        let original: SourceBytes
        do {
            original = try await metrics.measure("fetch") { try await fetcher.fetch(source) }
        } catch {
            throw StagedError(error, stage: .fetch)
        }
        do {
            let header = try await withTaskExecutorPreference(limiter.executor) { try coders.readHeader(original.data) }
            var info = ImageInfo(file: text, fileSize: original.data.count, header: header)
            info.etag = original.validator
            guard thumbHash else { return info }
            let limits = configuration.limits
            guard header.pixelSize.pixelCount <= limits.maxSourcePixels else {
                throw WebImageError.tooManyPixels(width: header.pixelSize.width, height: header.pixelSize.height, limit: limits.maxSourcePixels)
            }
            let box = PixelSize(width: ThumbHash.maxSide, height: ThumbHash.maxSide)
            // What the thumbnail decode allocates (4 bytes a pixel) and a premultiplied copy.
            let weight = MemoryEstimate.allocatedPixels(format: header.format, displayed: header.pixelSize, box: box).pixelCount * 8
            let hash = try await limiter.withSlot(weight: weight) {
                try ThumbHash.encode(imageData: original.data, coders: coders, maxPixelCount: limits.maxSourcePixels)
            }
            info.thumbHash = Data(hash).base64EncodedString()
            return info
        } catch let error as WebImageError where error.code == .overloaded {
            metrics.overloadRefusals.increment()
            throw StagedError(error, stage: .process)
        } catch {
            throw StagedError(error, stage: .process)
        }
    }
}
