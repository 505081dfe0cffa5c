/// Text progress bars for the live display, fitted to the terminal's width.
enum ProgressBar {
    /// `  cat.png            [██████░░░░░░░░]  43%  1.2 MB / 2.8 MB`; an unknown size shows the
    /// bytes so far and a bar with a moving block.
    static func download(label: String, received: Int, expected: Int?, width: Int) -> String {
        let labelWidth = min(28, max(10, width / 4))
        let name = fit(label, labelWidth)
        let sizes: String
        let fraction: Double?
        if let expected, expected > 0 {
            let clamped = min(received, expected)
            fraction = Double(clamped) / Double(expected)
            sizes = "\(String(Int(fraction! * 100)).leftPadded(to: 3))%  \(formatBytes(received)) / \(formatBytes(expected))"
        } else {
            fraction = nil
            sizes = "      \(formatBytes(received))"
        }
        let barWidth = max(10, width - labelWidth - sizes.count - 8)
        return "  \(name) [\(bar(fraction, width: barWidth, phase: received / 16_384))] \(sizes)"
    }

    /// `[██████████░░░░░░░░░░]  7/20 done, 1 failed` for the whole run.
    static func overall(done: Int, failed: Int, total: Int, width: Int) -> String {
        var counts = "\(done)/\(total) done"
        if failed > 0 { counts += ", \(failed) failed" }
        let barWidth = max(10, min(60, width - counts.count - 6))
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        return "[\(bar(fraction, width: barWidth, phase: 0))]  \(counts)"
    }

    /// A bar of `width` cells: filled to `fraction`, or, when nil, a three-cell block that moves
    /// with `phase`.
    static func bar(_ fraction: Double?, width: Int, phase: Int) -> String {
        guard let fraction else {
            let start = phase % max(1, width - 2)
            return String(repeating: "░", count: start) + "███" + String(repeating: "░", count: max(0, width - start - 3))
        }
        let filled = Int((min(1, max(0, fraction)) * Double(width)).rounded(.down))
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }

    /// `text` cut to `width` characters with an ellipsis, or padded with spaces to it.
    static func fit(_ text: String, _ width: Int) -> String {
        if text.count > width { return String(text.prefix(width - 1)) + "…" }
        return text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
