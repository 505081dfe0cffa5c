/// Mirrors the displayed image horizontally and/or vertically (SDWebImage's
/// `SDImageFlippingTransformer`).
///
/// Lossless: each pixel is moved once, through the same kernel that applies EXIF orientation
/// (``PixelBuffer/oriented(_:)``), composed with the image's own orientation. The result is
/// upright (``ImageOrientation/up``); flipping twice gives the displayed pixels back exactly.
///
/// ```swift
/// let mirrored = try FlipTransformer(horizontal: true).transform(image)
/// ```
public struct FlipTransformer: ImageTransforming {
    /// Whether left and right are swapped.
    public let horizontal: Bool
    /// Whether top and bottom are swapped.
    public let vertical: Bool

    /// A flip; with neither axis it is the identity.
    public init(horizontal: Bool = false, vertical: Bool = false) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// `FlipTransformer(h,v)` with 1 or 0 for each axis, as SDWebImage writes it.
    public var key: String { "FlipTransformer(\(horizontal ? 1 : 0),\(vertical ? 1 : 0))" }

    public func transform(_ image: Image) throws -> Image {
        let flip: ImageOrientation =
            switch (horizontal, vertical) {
            case (true, true): .down
            case (true, false): .upMirrored
            case (false, true): .downMirrored
            case (false, false): .up
            }
        guard flip != .up else { return image }
        return try mapUprightFrames(image, reorienting: flip, hasAlpha: image.hasAlpha, canvasSize: { $0 }) { $0 }
    }
}
