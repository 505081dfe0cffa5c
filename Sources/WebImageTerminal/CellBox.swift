/// The text a cell shows while its image loads (a box with the name and a progress bar) or when
/// it failed (a red box with the error), exactly `columns` wide and `rows` high so that it
/// overwrites whatever was there.
///
/// ```swift
/// CellBox.loading(label: "cat.png", fraction: 0.4, columns: 24, rows: 5)
/// // ┌ cat.png ─────────────┐
/// // │                      │
/// // │ ████████░░░░░░░░ 40% │
/// // │                      │
/// // └──────────────────────┘
/// ```
public enum CellBox {
    /// The loading box: the label in the top border, a bar (filled to `fraction`, or empty while
    /// the size is unknown) on the middle row.
    public static func loading(label: String, fraction: Double?, columns: Int, rows: Int) -> [String] {
        let inner = max(0, columns - 4)
        let percent = fraction.map { "\(Int((min(1, max(0, $0)) * 100).rounded(.down)))%" } ?? ""
        let barWidth = max(0, inner - (percent.isEmpty ? 0 : percent.count + 1))
        let filled = Int((min(1, max(0, fraction ?? 0)) * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        let progress = percent.isEmpty ? bar : bar + " " + percent
        return box(label: label, content: [progress], columns: columns, rows: rows, colour: "")
    }

    /// The failure box: the label in the top border and `message` wrapped inside, in red.
    public static func failure(label: String, message: String, columns: Int, rows: Int) -> [String] {
        let inner = max(1, columns - 4)
        var content: [String] = []
        var rest = Substring("✗ " + message)
        while !rest.isEmpty {
            content.append(String(rest.prefix(inner)))
            rest = rest.dropFirst(inner)
        }
        return box(label: label, content: content, columns: columns, rows: rows, colour: "\u{1B}[31m")
    }

    /// A box of `columns`×`rows` (a single line when there are fewer than 3 rows or 4 columns)
    /// with `content` centred vertically.
    static func box(label: String, content: [String], columns: Int, rows: Int, colour: String) -> [String] {
        let columns = max(1, columns)
        let reset = colour.isEmpty ? "" : "\u{1B}[0m"
        guard rows >= 3, columns >= 4 else {
            let line = fit(label + " " + (content.first ?? ""), columns)
            return [colour + line + reset] + Array(repeating: String(repeating: " ", count: columns), count: max(0, rows - 1))
        }
        let inner = columns - 4
        let title = fit(" " + label + " ", max(0, columns - 2)).trimmingTrailingSpaces
        let top = "┌" + title + String(repeating: "─", count: max(0, columns - 2 - title.count)) + "┐"
        let bottom = "└" + String(repeating: "─", count: columns - 2) + "┘"
        let middle = rows - 2
        let shown = Array(content.prefix(middle))
        let first = (middle - shown.count) / 2
        var lines = [colour + top + reset]
        for index in 0..<middle {
            let text = index >= first && index < first + shown.count ? shown[index - first] : ""
            lines.append(colour + "│ " + fit(text, inner) + " │" + reset)
        }
        lines.append(colour + bottom + reset)
        return lines
    }

    /// `text` cut to `width` characters (with an ellipsis) or padded with spaces to it.
    static func fit(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        if text.count > width { return String(text.prefix(width - 1)) + "…" }
        return text + String(repeating: " ", count: width - text.count)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") && text.count > 1 { text.removeLast() }
        return text + " "
    }
}
