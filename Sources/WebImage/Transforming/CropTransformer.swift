/// Crops to a rectangle in pixels of the *displayed* image (SDWebImage's
/// `SDImageCroppingTransformer`); the rectangle is clipped to the image, and an empty
/// intersection is an error.
///
/// Like ``ResizeTransformer``, the rectangle is in the displayed orientation: for an image whose
/// ``Image/orientation`` is not `.up` it is mapped onto the stored pixels, and the result keeps
/// the orientation (and the format).
///
/// ```swift
/// let corner = try CropTransformer(rect: PixelRect(x: 0, y: 0, width: 64, height: 64)).transform(image)
/// ```
public struct CropTransformer: ImageTransforming {
    /// The rectangle to keep, in displayed pixels (origin top-left).
    public let rect: PixelRect
    /// A crop to `rect`.
    public init(rect: PixelRect) { self.rect = rect }
    public var key: String { "CropTransformer(\(rect.x),\(rect.y),\(rect.width),\(rect.height))" }

    public func transform(_ image: Image) throws -> Image {
        let stored = image.pixelSize
        let orientation = image.orientation
        let displayed =
            orientation.swapsDimensions ? PixelSize(width: stored.height, height: stored.width) : stored
        let clipped = rect.intersection(PixelRect(x: 0, y: 0, width: displayed.width, height: displayed.height))
        guard clipped.width > 0, clipped.height > 0 else {
            throw WebImageError(.badImageData, "crop rectangle \(rect) lies outside the \(displayed) image")
        }
        let region = Self.storedRect(of: clipped, orientation: orientation, storedSize: stored)
        return try mapFrames(image, canvasSize: PixelSize(width: region.width, height: region.height)) {
            try $0.cropped(to: region)
        }
    }

    /// The stored pixels that `displayed` (a rectangle inside the displayed image) shows.
    static func storedRect(of displayed: PixelRect, orientation: ImageOrientation, storedSize: PixelSize) -> PixelRect {
        let (w, h) = (storedSize.width, storedSize.height)
        // The stored pixel shown at display position (x, y), as PixelBuffer.oriented(_:) maps it.
        func stored(_ x: Int, _ y: Int) -> (x: Int, y: Int) {
            switch orientation {
            case .up: (x, y)
            case .upMirrored: (w - 1 - x, y)
            case .down: (w - 1 - x, h - 1 - y)
            case .downMirrored: (x, h - 1 - y)
            case .leftMirrored: (y, x)
            case .right: (y, h - 1 - x)
            case .rightMirrored: (w - 1 - y, h - 1 - x)
            case .left: (w - 1 - y, x)
            }
        }
        let a = stored(displayed.x, displayed.y)
        let b = stored(displayed.x + displayed.width - 1, displayed.y + displayed.height - 1)
        return PixelRect(
            x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
    }
}
