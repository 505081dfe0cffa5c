extension ImageTransforming {
    /// Applies `body` to the first frame and (lazily) to every animation frame, with the result's
    /// orientation and alpha flag given.
    func mapFrames(
        _ image: Image, canvasSize: PixelSize, orientation: ImageOrientation, hasAlpha: Bool,
        _ body: @escaping @Sendable (PixelBuffer) throws -> PixelBuffer
    ) throws -> Image {
        let animation = image.animation.map {
            MappedAnimation($0, canvasSize: canvasSize, transform: body) as any AnimatedImageSource
        }
        return Image(
            pixels: try body(image.pixels), scale: image.scale, orientation: orientation, format: image.format,
            animation: animation, hasAlpha: hasAlpha, originalPixelSize: image.originalPixelSize,
            colorProfile: image.colorProfile, metadata: image.metadata)
    }

    /// Applies `body` to every frame made upright (the image's orientation applied to the pixels
    /// first, in the same pass as `extra`, a further lossless re-orientation); the result is `.up`.
    ///
    /// For transforms whose parameters are in displayed coordinates (corners, angles, positions).
    func mapUprightFrames(
        _ image: Image, reorienting extra: ImageOrientation = .up, hasAlpha: Bool,
        canvasSize: (PixelSize) -> PixelSize,
        _ body: @escaping @Sendable (PixelBuffer) throws -> PixelBuffer
    ) throws -> Image {
        let orientation = image.orientation.followed(by: extra)
        let stored = image.animation?.canvasSize ?? image.pixelSize
        let upright =
            orientation.swapsDimensions ? PixelSize(width: stored.height, height: stored.width) : stored
        return try mapFrames(image, canvasSize: canvasSize(upright), orientation: .up, hasAlpha: hasAlpha) {
            try body($0.oriented(orientation))
        }
    }
}

extension PixelBuffer {
    /// `body` run on these pixels in `mode`, its result returned in this buffer's own mode.
    func working(in mode: AlphaMode, _ body: (PixelBuffer) throws -> PixelBuffer) rethrows -> PixelBuffer {
        let own = alphaMode
        return try body(converted(to: mode)).converted(to: own)
    }
}

/// Formats a parameter for a transformer key: integers without a fraction, others in Swift's
/// shortest round-tripping form (stable across runs and platforms).
func keyNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
}

extension RGBA8 {
    /// `#rrggbbaa`, lower case: how colours appear in transformer keys.
    var keyHex: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for byte in [r, g, b, a] {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return text
    }
}
