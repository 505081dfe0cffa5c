/// Where a smaller rectangle sits inside a larger one: the centre, an edge's middle or a corner
/// (the compass names ImageMagick and libvips use).
///
/// ```swift
/// let rect = ImageGravity.southEast.place(PixelSize(width: 50, height: 20), in: PixelSize(width: 200, height: 100))
/// // PixelRect(x: 150, y: 80, width: 50, height: 20)
/// ```
public enum ImageGravity: String, Sendable, CaseIterable {
    case center, north, northEast, east, southEast, south, southWest, west, northWest

    /// The rectangle of `size` placed in `container` at this gravity, moved `inset` pixels inwards
    /// from the edges it touches (centred axes ignore the inset). Rounds down when centring.
    public func place(_ size: PixelSize, in container: PixelSize, inset: (x: Int, y: Int) = (0, 0)) -> PixelRect {
        let spareX = container.width - size.width
        let spareY = container.height - size.height
        let x: Int
        switch self {
        case .west, .northWest, .southWest: x = inset.x
        case .east, .northEast, .southEast: x = spareX - inset.x
        case .center, .north, .south: x = spareX / 2
        }
        let y: Int
        switch self {
        case .north, .northWest, .northEast: y = inset.y
        case .south, .southWest, .southEast: y = spareY - inset.y
        case .center, .west, .east: y = spareY / 2
        }
        return PixelRect(x: x, y: y, width: size.width, height: size.height)
    }
}
