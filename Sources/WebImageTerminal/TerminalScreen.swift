/// Draws into a rectangle of the terminal reserved below the cursor: ``reserve(rows:)`` makes room
/// and saves its top-left corner (`ESC 7`); every draw restores that corner (`ESC 8`) and moves
/// from it with relative cursor moves, so cells can be redrawn in any order while images load
/// and animations play; ``finish(rows:)`` leaves the cursor under the rectangle.
///
/// ```swift
/// let screen = TerminalScreen { Terminal.out($0) }
/// screen.reserve(rows: 10)
/// screen.draw(lines: ["hello"], row: 2, column: 4)
/// screen.finish(rows: 10)
/// ```
@MainActor
public final class TerminalScreen {
    private let write: @MainActor (String) -> Void

    /// A screen that sends its output to `write`.
    public init(write: @escaping @MainActor (String) -> Void) {
        self.write = write
    }

    /// Scrolls `rows` empty lines into view, hides the cursor and saves the first line's start.
    public func reserve(rows: Int) {
        let rows = max(1, rows)
        write("\r" + String(repeating: "\n", count: rows) + "\u{1B}[\(rows)A\u{1B}7\u{1B}[?25l")
    }

    /// Writes `lines` one per row from (`row`, `column`) of the reserved rectangle.
    public func draw(lines: [String], row: Int, column: Int) {
        var out = ""
        for (offset, line) in lines.enumerated() {
            out += Self.move(row: row + offset, column: column) + line
        }
        write(out)
    }

    /// Writes `sequence` (an inline image) at (`row`, `column`) of the reserved rectangle.
    public func draw(sequence: String, row: Int, column: Int) {
        write(Self.move(row: row, column: column) + sequence)
    }

    /// Puts the cursor on the line after the reserved `rows` and shows it again.
    public func finish(rows: Int) {
        write("\u{1B}8" + (rows > 0 ? "\u{1B}[\(rows)B" : "") + "\r\u{1B}[0m\u{1B}[?25h")
    }

    /// Restore the saved corner, then move down and right (a move of 0 is left out: `ESC[0B`
    /// moves one line in most terminals).
    static func move(row: Int, column: Int) -> String {
        "\u{1B}8" + (row > 0 ? "\u{1B}[\(row)B" : "") + (column > 0 ? "\u{1B}[\(column)C" : "")
    }
}
