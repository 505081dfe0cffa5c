import Foundation
public import WebImage
import WebImagePNG

/// An image drawn for a box of text cells in one ``TerminalGraphics`` protocol: either text lines
/// (half blocks), each written at its row, or one escape sequence written at the top-left cell.
public enum CellDrawing: Sendable, Equatable {
    /// One string per cell row.
    case lines([String])
    /// An inline-image sequence drawn at the box's first cell, covering `rows` rows.
    case sequence(String, rows: Int)

    /// `pixels` (already scaled by ``CellFit``) drawn over `columns`×`rows` cells with `graphics`.
    /// `imageID` names the image for kitty so that redrawing (an animation's next frame) replaces it.
    public static func render(
        _ pixels: PixelBuffer, graphics: TerminalGraphics, columns: Int, rows: Int, imageID: UInt32? = nil,
        moveCursor: Bool = false
    ) throws -> CellDrawing {
        switch graphics {
        case .blocks:
            return .lines(HalfBlockRenderer.lines(for: pixels))
        case .sixel:
            return .sequence(try SixelEncoder.encode(pixels), rows: rows)
        case .kitty:
            let png = try pngData(pixels)
            return .sequence(
                KittyGraphics.sequence(
                    png: png, columns: columns, rows: rows, imageID: imageID, placementID: imageID == nil ? nil : 1,
                    moveCursor: moveCursor),
                rows: rows)
        case .iterm2:
            return .sequence(ITerm2Graphics.sequence(png: try pngData(pixels), columns: columns, rows: rows), rows: rows)
        }
    }

    /// Our PNG encoder at a fast level (terminals decode it once; animations re-encode every frame).
    static func pngData(_ pixels: PixelBuffer) throws -> Data {
        var options = ImageEncodingOptions()
        options.compressionLevel = 1
        return try PNGCoder().encode(Image(pixels: pixels.converted(to: .straight), format: .png), as: .png, options: options)
    }
}
