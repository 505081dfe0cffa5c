/// The boxes of `webimage show`'s grid: `count` images in `columns` columns, each box as wide as
/// the terminal allows (one blank column between boxes) and as high as fits the terminal's rows
/// less one, unless `--width`/`--height` ask for less.
///
/// ```swift
/// let grid = try GridLayout(count: 4, columns: 2, terminal: TerminalSize(columns: 81, rows: 25))
/// grid.boxes[3]   // row 12, column 41, 40×12
/// grid.rows       // 24
/// ```
public struct GridLayout: Sendable, Hashable {
    /// One box per image, in order, row by row.
    public var boxes: [TerminalImageCell.Layout]
    /// The rows the whole grid covers.
    public var rows: Int

    /// Lays out `count` boxes. Throws when they cannot be at least one row high each (too many
    /// grid rows for the terminal).
    public init(count: Int, columns: Int, terminal: TerminalSize, width: Int? = nil, height: Int? = nil) throws {
        let count = max(1, count)
        let columns = min(max(1, columns), count)
        let gridRows = (count + columns - 1) / columns
        var boxColumns = max(1, (terminal.columns - (columns - 1)) / columns)
        if let width { boxColumns = min(boxColumns, max(1, width)) }
        var boxRows = (terminal.rows - 1) / gridRows
        if let height { boxRows = min(height, max(boxRows, 1)) }
        guard boxRows >= 1 else {
            throw LayoutError(
                message: "\(count) images in \(columns) column\(columns == 1 ? "" : "s") need \(gridRows) rows; "
                    + "the terminal has \(terminal.rows): use --grid with more columns")
        }
        boxes = (0..<count).map { index in
            TerminalImageCell.Layout(
                row: (index / columns) * boxRows, column: (index % columns) * (boxColumns + 1), columns: boxColumns,
                rows: boxRows)
        }
        rows = gridRows * boxRows
    }

    /// Why a grid does not fit.
    public struct LayoutError: Error, CustomStringConvertible {
        /// What to tell the user.
        public var message: String
        public var description: String { message }
    }
}
