/// Where a resize puts a source's pixels: computed from sizes alone, overflow-safe, before any
/// pixel is allocated.
///
/// Every size here is at most the target (or, without upscaling, the source) on each axis, so a
/// target that passed the pixel limit bounds every buffer the resize makes.
struct ResizeGeometry: Hashable, Sendable {
    /// The part of the source that is kept (the whole source, except for aspect-fill's crop).
    var sourceRect: PixelRect
    /// The size `sourceRect` is resampled to.
    var scaledSize: PixelSize
    /// The result's size: `scaledSize`, or the target when the result is padded.
    var canvasSize: PixelSize

    /// The top-left of the scaled pixels on the canvas (centred; zero without padding).
    var origin: (x: Int, y: Int) {
        ((canvasSize.width - scaledSize.width) / 2, (canvasSize.height - scaledSize.height) / 2)
    }

    /// The geometry of resizing a `source`-sized buffer into `target` (both non-empty) in `mode`.
    init(source: PixelSize, target: PixelSize, mode: ResizeTransformer.Mode, allowsUpscaling: Bool, padsToSize: Bool) {
        let scaleX = Double(target.width) / Double(source.width)
        let scaleY = Double(target.height) / Double(source.height)
        let whole = PixelRect(x: 0, y: 0, width: source.width, height: source.height)
        switch mode {
        case .fill:
            let size =
                allowsUpscaling
                ? target : PixelSize(width: min(target.width, source.width), height: min(target.height, source.height))
            self.init(sourceRect: whole, scaledSize: size, canvasSize: padsToSize ? target : size)
        case .aspectFit:
            let scale = allowsUpscaling ? min(scaleX, scaleY) : min(scaleX, scaleY, 1)
            let fitted = PixelSize(
                width: Self.scaled(source.width, by: scale, atMost: target.width),
                height: Self.scaled(source.height, by: scale, atMost: target.height))
            self.init(sourceRect: whole, scaledSize: fitted, canvasSize: padsToSize ? target : fitted)
        case .aspectFill:
            var scale = max(scaleX, scaleY)
            let size: PixelSize
            if allowsUpscaling || scale <= 1 {
                // The result is the target, covered by the scaled source.
                size = PixelSize(
                    width: Self.scaled(source.width, by: scale, atMost: target.width),
                    height: Self.scaled(source.height, by: scale, atMost: target.height))
            } else {
                // Covering would enlarge: keep the largest part of the source with the target's
                // proportions, at the source's own scale.
                let shrink = min(Double(source.width) / Double(target.width), Double(source.height) / Double(target.height))
                scale = 1
                size = PixelSize(
                    width: Self.scaled(target.width, by: shrink, atMost: source.width),
                    height: Self.scaled(target.height, by: shrink, atMost: source.height))
            }
            // Crop the source to what maps onto the result, centred, before resampling, so that
            // no covering-size intermediate is ever allocated.
            let kept = PixelSize(
                width: Self.scaled(size.width, by: 1 / scale, atMost: source.width),
                height: Self.scaled(size.height, by: 1 / scale, atMost: source.height))
            let rect = PixelRect(
                x: (source.width - kept.width) / 2, y: (source.height - kept.height) / 2,
                width: kept.width, height: kept.height)
            self.init(sourceRect: rect, scaledSize: size, canvasSize: padsToSize ? target : size)
        }
    }

    private init(sourceRect: PixelRect, scaledSize: PixelSize, canvasSize: PixelSize) {
        self.sourceRect = sourceRect
        self.scaledSize = scaledSize
        self.canvasSize = canvasSize
    }

    /// `length × scale` rounded, within `1...limit`; saturating (never traps on huge or
    /// non-finite products).
    static func scaled(_ length: Int, by scale: Double, atMost limit: Int) -> Int {
        let product = (Double(length) * scale).rounded()
        guard product.isFinite, product < Double(limit) else { return max(1, limit) }
        return max(1, Int(product))
    }
}
