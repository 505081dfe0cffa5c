extension ImageDecodingOptions {
    /// How many frames of `framePixelCount` pixels each fit in ``maxAnimationPixelCount``
    /// (at least 1: the first frame is always allowed).
    ///
    /// Decoders that count frames while reading the container stop there, so that a file of
    /// millions of frames is refused without walking all of them.
    public func maxAnimationFrameCount(framePixelCount: Int) -> Int {
        max(1, max(0, maxAnimationPixelCount) / max(1, framePixelCount))
    }

    /// Throws ``WebImageError/Code/tooLarge`` when `frameCount` frames of `canvasSize` exceed
    /// ``maxAnimationPixelCount``. Decoders call it with the container's frame count before
    /// decoding any frame after the first; it never throws for ``firstFrameOnly`` or a single frame.
    ///
    /// ```swift
    /// try options.checkAnimationBudget(frameCount: 20_000, canvasSize: PixelSize(width: 500, height: 500))
    /// // tooLarge: animation of 20000 frames of 500×500 (5000000000 pixels) is over the animation budget …
    /// ```
    public func checkAnimationBudget(frameCount: Int, canvasSize: PixelSize) throws {
        guard !firstFrameOnly, frameCount > 1 else { return }
        let (total, overflow) = canvasSize.pixelCount.multipliedReportingOverflow(by: frameCount)
        if overflow || total > maxAnimationPixelCount {
            throw WebImageError.animationTooLarge(
                frames: "\(frameCount) frames", canvasSize: canvasSize, limit: maxAnimationPixelCount,
                total: overflow ? nil : total)
        }
    }
}

extension WebImageError {
    /// A `tooLarge` error for an animation whose frames exceed the animation pixel budget.
    ///
    /// `frames` says how many frames were met (`"20000 frames"`, `"more than 4000 frames"`).
    static func animationTooLarge(frames: String, canvasSize: PixelSize, limit: Int, total: Int?) -> WebImageError {
        let amount = total.map { " (\($0) pixels)" } ?? ""
        return WebImageError(
            .tooLarge,
            "animation of \(frames) of \(canvasSize)\(amount) is over the animation budget of \(limit) pixels "
                + "(ImageDecodingOptions.maxAnimationPixelCount)")
    }

    /// A `tooLarge` error for an animation that has more frames than the budget allows, found
    /// while counting them.
    public static func tooManyAnimationFrames(moreThan count: Int, canvasSize: PixelSize, limit: Int) -> WebImageError {
        animationTooLarge(frames: "more than \(count) frames", canvasSize: canvasSize, limit: limit, total: nil)
    }
}
