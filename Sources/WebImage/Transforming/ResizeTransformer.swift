/// Resizes to a size in pixels (SDWebImage's `SDImageResizingTransformer`).
///
/// - ``Mode/fill``: stretch to exactly the size.
/// - ``Mode/aspectFit``: fit inside the size keeping the aspect ratio; the canvas is exactly the
///   size, with transparent margins.
/// - ``Mode/aspectFill``: cover the size keeping the aspect ratio, centred and cropped to it.
///
/// ```swift
/// let square = try ResizeTransformer(size: PixelSize(width: 128, height: 128), mode: .aspectFill).transform(image)
/// ```
public struct ResizeTransformer: ImageTransforming {
    /// How the image is placed in the target size.
    public enum Mode: String, Sendable, CaseIterable {
        case fill, aspectFit, aspectFill
    }

    public let size: PixelSize
    public let mode: Mode

    public init(size: PixelSize, mode: Mode = .fill) {
        self.size = size
        self.mode = mode
    }

    public var key: String { "ResizeTransformer(\(size.width)x\(size.height),\(mode.rawValue))" }

    public func transform(_ image: Image) throws -> Image {
        guard size.width > 0, size.height > 0 else {
            throw WebImageError(.badImageData, "cannot resize to an empty size \(size)")
        }
        let (target, mode) = (size, mode)
        return try mapFrames(image, canvasSize: target) { try Self.resize($0, to: target, mode: mode) }
    }

    static func resize(_ pixels: PixelBuffer, to target: PixelSize, mode: Mode) throws -> PixelBuffer {
        let source = pixels.size
        let scaleX = Double(target.width) / Double(source.width)
        let scaleY = Double(target.height) / Double(source.height)
        switch mode {
        case .fill:
            return Resampler.resample(pixels, to: target)
        case .aspectFit:
            let scale = min(scaleX, scaleY)
            let fitted = PixelSize(
                width: max(1, Int((Double(source.width) * scale).rounded())),
                height: max(1, Int((Double(source.height) * scale).rounded())))
            let scaled = Resampler.resample(pixels, to: fitted)
            var canvas = PixelBuffer(width: target.width, height: target.height, alphaMode: pixels.alphaMode)
            canvas.draw(scaled, at: ((target.width - fitted.width) / 2, (target.height - fitted.height) / 2))
            return canvas
        case .aspectFill:
            let scale = max(scaleX, scaleY)
            let covering = PixelSize(
                width: max(target.width, Int((Double(source.width) * scale).rounded())),
                height: max(target.height, Int((Double(source.height) * scale).rounded())))
            let scaled = Resampler.resample(pixels, to: covering)
            return try scaled.cropped(
                to: PixelRect(
                    x: (covering.width - target.width) / 2, y: (covering.height - target.height) / 2,
                    width: target.width, height: target.height))
        }
    }
}

/// Crops to a rectangle in pixels (SDWebImage's `SDImageCroppingTransformer`); the rectangle is
/// clipped to the image, and an empty intersection is an error.
public struct CropTransformer: ImageTransforming {
    public let rect: PixelRect
    public init(rect: PixelRect) { self.rect = rect }
    public var key: String { "CropTransformer(\(rect.x),\(rect.y),\(rect.width),\(rect.height))" }

    public func transform(_ image: Image) throws -> Image {
        let clipped = rect.intersection(PixelRect(x: 0, y: 0, width: image.pixelSize.width, height: image.pixelSize.height))
        guard clipped.width > 0, clipped.height > 0 else {
            throw WebImageError(.badImageData, "crop rectangle \(rect) lies outside the \(image.pixelSize) image")
        }
        return try mapFrames(image, canvasSize: PixelSize(width: clipped.width, height: clipped.height)) {
            try $0.cropped(to: clipped)
        }
    }
}
