import Foundation

/// Decoding, shared by the download+decode stage and the disk hits of cache queries.
extension ImageManager {
    /// Decodes bytes with the request's decode options, off the caller, a bounded number at once;
    /// with `preloadAllFrames`, the animation's frames go into the frame pool now (as many as its
    /// budget holds). A request's own coder is asked through the configured
    /// ``ImageCodersManager`` when there is one, so its animations are pooled too.
    func decode(_ data: Data, plan: RequestPlan, key: String) async throws -> Image {
        let requestCoder = plan.request.decoding.coder
        let coders = configuration.coders
        let options = plan.decoding
        let preload = plan.options.contains(.preloadAllFrames)
        return try await timed(.decode, plan, key: key) {
            try await limiter.run { () throws -> Image in
                let image: Image
                if let manager = coders as? ImageCodersManager {
                    image = try manager.decode(data, options: options, using: requestCoder)
                } else {
                    image = try (requestCoder ?? coders).decodeWrappingErrors(data, options: options).pooled()
                }
                guard preload else { return image }
                do {
                    try image.preloadAllFrames()
                } catch {
                    throw WebImageError.wrapping(error, code: .decodingFailed, "a frame of \(plan.url.absoluteString) failed to decode")
                }
                return image
            }
        }
    }
}
