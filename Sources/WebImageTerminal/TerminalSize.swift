#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A terminal's size in cells, and in pixels when the terminal reports it (`TIOCGWINSZ`'s
/// `ws_xpixel`/`ws_ypixel`; many terminals leave them 0).
public struct TerminalSize: Sendable, Hashable {
    /// Columns.
    public var columns: Int
    /// Rows.
    public var rows: Int
    /// The text area's width in pixels, 0 when unknown.
    public var pixelWidth: Int
    /// The text area's height in pixels, 0 when unknown.
    public var pixelHeight: Int

    /// A size of `columns`×`rows` cells (and the pixel size when known).
    public init(columns: Int, rows: Int, pixelWidth: Int = 0, pixelHeight: Int = 0) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        self.pixelWidth = max(0, pixelWidth)
        self.pixelHeight = max(0, pixelHeight)
    }

    /// The size of the terminal on `descriptor`, or nil when it is not a terminal.
    public static func of(descriptor: Int32) -> TerminalSize? {
        var size = winsize()
        let status = withUnsafeMutablePointer(to: &size) { ioctl(descriptor, UInt(TIOCGWINSZ), $0) }
        guard status == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return TerminalSize(
            columns: Int(size.ws_col), rows: Int(size.ws_row), pixelWidth: Int(size.ws_xpixel),
            pixelHeight: Int(size.ws_ypixel))
    }

    /// One cell's size in pixels, when the terminal reported its pixel size.
    public var cellPixels: CellPixels? {
        guard pixelWidth >= columns, pixelHeight >= rows else { return nil }
        return CellPixels(width: pixelWidth / columns, height: pixelHeight / rows)
    }
}
