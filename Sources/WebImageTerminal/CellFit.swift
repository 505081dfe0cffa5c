public import WebImage

/// Where an image goes in a box of text cells: how many cells it covers and the pixel size to
/// draw it at, keeping its aspect ratio.
///
/// ```swift
/// let fit = CellFit(image: PixelSize(width: 640, height: 480), cell: CellPixels(width: 1, height: 2),
///                   box: (columns: 80, rows: 23))
/// fit.columns   // 61: 61×46 half-block pixels, 23 rows
/// ```
public struct CellFit: Sendable, Hashable {
    /// Cells across.
    public var columns: Int
    /// Cells down.
    public var rows: Int
    /// The pixel size to scale the image to.
    public var pixels: PixelSize

    /// Fits `image` into `box` (cells) where a cell shows `cell` pixels. An image that fits at its
    /// own size is not enlarged unless `enlarge` (set when the user asked for a width or height).
    public init(image: PixelSize, cell: CellPixels, box: (columns: Int, rows: Int), enlarge: Bool = false) {
        let boxWidth = Double(max(1, box.columns) * cell.width)
        let boxHeight = Double(max(1, box.rows) * cell.height)
        let width = Double(max(1, image.width))
        let height = Double(max(1, image.height))
        var scale = min(boxWidth / width, boxHeight / height)
        if !enlarge { scale = min(scale, 1) }
        let pixelWidth = max(1, min(Int(boxWidth), Int((width * scale).rounded())))
        let pixelHeight = max(1, min(Int(boxHeight), Int((height * scale).rounded())))
        columns = max(1, (pixelWidth + cell.width - 1) / cell.width)
        rows = max(1, (pixelHeight + cell.height - 1) / cell.height)
        pixels = PixelSize(width: pixelWidth, height: pixelHeight)
    }
}
