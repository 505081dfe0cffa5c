import Foundation

/// Decoding, shared by the download+decode stage and the disk hits of cache queries.
extension ImageManager {
    /// Decodes bytes with the request's decode options, off the caller, a bounded number at once;
    /// with `preloadAllFrames`, every frame of an animation is decoded now.
    func decode(_ data: Data, plan: RequestPlan, key: String) async throws -> Image {
        let decoder: any ImageDecoding = plan.request.decoding.coder ?? configuration.coders
        let options = plan.decoding
        let preload = plan.options.contains(.preloadAllFrames)
        return try await timed(.decode, plan, key: key) {
            try await limiter.run { () throws -> Image in
                let image = try decoder.decodeWrappingErrors(data, options: options)
                guard preload, let animation = image.animation, !(animation is InMemoryAnimation) else { return image }
                let frames = try (0..<animation.frameCount).map { index in
                    do {
                        return try animation.frame(at: index)
                    } catch {
                        throw WebImageError.wrapping(error, code: .decodingFailed, "frame \(index) of \(plan.url.absoluteString) failed to decode")
                    }
                }
                return Image(
                    pixels: image.pixels, scale: image.scale, orientation: image.orientation, format: image.format,
                    animation: InMemoryAnimation(frames: frames, loopCount: animation.loopCount),
                    hasAlpha: image.hasAlpha, originalPixelSize: image.originalPixelSize)
            }
        }
    }
}
