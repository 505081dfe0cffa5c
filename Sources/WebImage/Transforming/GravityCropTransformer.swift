/// Crops the displayed image to a size, placed by gravity or by "attention" (the most detailed
/// region): the smart crops a thumbnail service needs.
///
/// - ``Anchor/gravity(_:)``: the centre, an edge's middle or a corner (``ImageGravity``).
/// - ``Anchor/attention``: the window of the size with the most edge energy. Energy is the
///   gradient magnitude of luma, `|L(x+1,y) − L(x−1,y)| + |L(x,y+1) − L(x,y−1)|`, weighted by
///   alpha, summed per cell of `f × f` pixels (`f` chosen so the longer side has at most 256
///   cells); a summed-area table then scores every window position on the `f`-pixel grid, and the
///   best wins (ties go to the position nearest the centre, so a flat image is centre-cropped).
///   For an animation the window is chosen on the first frame and kept for every frame.
///
/// A size larger than the image is clipped to it. Like ``CropTransformer`` the size is in the
/// displayed orientation and the result keeps the orientation (and format).
///
/// ```swift
/// let square = try GravityCropTransformer(size: PixelSize(width: 400, height: 400), anchor: .attention).transform(photo)
/// let banner = try GravityCropTransformer(size: PixelSize(width: 1200, height: 300), anchor: .gravity(.north)).transform(photo)
/// ```
public struct GravityCropTransformer: ImageTransforming {
    /// How the crop window is placed.
    public enum Anchor: Hashable, Sendable {
        /// At a fixed position: centre, edge or corner.
        case gravity(ImageGravity)
        /// Over the most detailed region (edge energy).
        case attention

        /// The anchor's name in keys and on the command line.
        public var name: String {
            switch self {
            case .gravity(let gravity): gravity.rawValue
            case .attention: "attention"
            }
        }
    }

    /// The size kept, in displayed pixels.
    public let size: PixelSize
    /// Where the window goes.
    public let anchor: Anchor

    /// A crop to `size`, placed by `anchor` (default: centred).
    public init(size: PixelSize, anchor: Anchor = .gravity(.center)) {
        self.size = size
        self.anchor = anchor
    }

    /// `GravityCropTransformer(WxH,anchor)`.
    public var key: String { "GravityCropTransformer(\(size.width)x\(size.height),\(anchor.name))" }

    public func transform(_ image: Image) throws -> Image {
        guard size.width > 0, size.height > 0 else {
            throw WebImageError.invalidTransform("cannot crop to an empty size \(size)")
        }
        let displayed = image.orientation.swapsDimensions
            ? PixelSize(width: image.pixelSize.height, height: image.pixelSize.width) : image.pixelSize
        let window = PixelSize(width: min(size.width, displayed.width), height: min(size.height, displayed.height))
        switch anchor {
        case .gravity(let gravity):
            return try CropTransformer(rect: gravity.place(window, in: displayed)).transform(image)
        case .attention:
            // Energy does not depend on orientation: search the stored pixels for the stored window.
            let storedWindow = image.orientation.swapsDimensions
                ? PixelSize(width: window.height, height: window.width) : window
            let region = AttentionSearch.bestWindow(storedWindow, in: image.pixels)
            return try mapFrames(
                image, canvasSize: storedWindow, orientation: image.orientation, hasAlpha: image.hasAlpha
            ) { try $0.cropped(to: region) }
        }
    }
}
