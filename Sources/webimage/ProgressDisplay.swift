import Foundation
import Synchronization
import WebImageKit

/// How a run shows its progress.
enum DisplayMode: Sendable, Equatable {
    /// A live display on standard error (a terminal): a bytes bar per running download and an
    /// overall bar, redrawn in place; result lines go to standard output above it.
    case live
    /// Plain lines, no escape codes: a result line per URL and a summary (not a terminal).
    case lines
    /// One JSON object per line on standard output: started, progress, finished/failed, summary.
    case json
    /// Failures only.
    case quiet

    /// The mode for the options given and where standard error goes.
    static func choose(json: Bool, quiet: Bool) -> DisplayMode {
        if json { return .json }
        if quiet { return .quiet }
        return Terminal.standardErrorIsTerminal ? .live : .lines
    }
}

/// Reports a run's items as they start, progress and end, in the chosen ``DisplayMode``.
/// Failures always go to standard error as `webimage: error: URL: code: message`.
final class ProgressDisplay: Sendable {
    private struct Running {
        var label: String
        var received = 0
        var expected: Int?
    }

    private struct State {
        var running: [Int: Running] = [:]
        var succeeded = 0
        var failed = 0
        var skipped = 0
        var drawnLines = 0
        var lastDraw: ContinuousClock.Instant?
        var lastJSONProgress: [Int: ContinuousClock.Instant] = [:]
        var ended = false
        var interrupted = false
    }

    let mode: DisplayMode
    let total: Int
    private let state = Mutex(State())
    private let clock = ContinuousClock()
    private let redrawInterval = Duration.milliseconds(80)
    private let colorsOutput = Terminal.standardOutputIsTerminal

    init(mode: DisplayMode, total: Int) {
        self.mode = mode
        self.total = total
        if mode == .live { Terminal.err(Terminal.Escape.hideCursor) }
    }

    /// An item started loading; `label` names it in the live display.
    func started(_ id: Int, url: String, label: String) {
        switch mode {
        case .live:
            state.withLock { state in
                state.running[id] = Running(label: label)
                redraw(&state, force: true)
            }
        case .json:
            Terminal.out(jsonLine(ProgressEvent(event: "started", url: url)))
        case .lines, .quiet:
            break
        }
    }

    /// Bytes arrived for a running item.
    func progress(_ id: Int, url: String, received: Int, expected: Int?) {
        switch mode {
        case .live:
            state.withLock { state in
                state.running[id]?.received = received
                state.running[id]?.expected = expected
                redraw(&state, force: false)
            }
        case .json:
            let now = clock.now
            let due = state.withLock { state -> Bool in
                let complete = expected.map { received >= $0 } ?? false
                if let last = state.lastJSONProgress[id], now - last < .milliseconds(100), !complete { return false }
                state.lastJSONProgress[id] = now
                return true
            }
            guard due else { return }
            Terminal.out(jsonLine(ProgressEvent(event: "progress", url: url, received: received, expected: expected)))
        case .lines, .quiet:
            break
        }
    }

    /// A progressive preview of a running item was decoded (`fetch --progressive`): a `preview`
    /// JSON event with its size and the bytes it was decoded from; the other modes show nothing.
    func preview(_ id: Int, url: String, size: PixelSize, received: Int, expected: Int?) {
        guard mode == .json else { return }
        Terminal.out(
            jsonLine(
                ProgressEvent(
                    event: "preview", url: url, received: received, expected: expected, width: size.width,
                    height: size.height)))
    }

    /// Ctrl-C came: the cancellations that follow are counted but not printed one by one (the
    /// summary says the run was cancelled).
    func interrupt() {
        state.withLock { $0.interrupted = true }
    }

    /// An item ended.
    func finished(_ id: Int, _ report: ItemReport) {
        state.withLock { state in
            let quietCancellation = state.interrupted && report.error?.code == "cancelled"
            state.running[id] = nil
            state.lastJSONProgress[id] = nil
            if report.event == "skipped" {
                state.skipped += 1
            } else if report.succeeded {
                state.succeeded += 1
            } else {
                state.failed += 1
            }
            let done = state.succeeded + state.failed + state.skipped
            switch mode {
            case .live:
                clearLive(&state)
                if report.event == "skipped" {
                    Terminal.err(Terminal.Escape.red("-") + " " + report.warningLine + "\n")
                } else if report.succeeded {
                    Terminal.out((colorsOutput ? Terminal.Escape.green("✓") : "✓") + " " + report.details + "\n")
                } else if !quietCancellation {
                    Terminal.err(Terminal.Escape.red("✗") + " " + report.errorLine + "\n")
                }
                redraw(&state, force: true)
            case .lines:
                if report.event == "skipped" {
                    Terminal.err(report.warningLine + "\n")
                } else if report.succeeded {
                    Terminal.out("[\(done)/\(total)] ok  \(report.details)\n")
                } else if !quietCancellation {
                    Terminal.err(report.errorLine + "\n")
                }
            case .json:
                Terminal.out(jsonLine(report))
                if report.event == "failed", !quietCancellation { Terminal.err(report.errorLine + "\n") }
            case .quiet:
                if report.event == "failed", !quietCancellation { Terminal.err(report.errorLine + "\n") }
            }
        }
    }

    /// The run ended: clears the live area and prints the summary.
    func end(cancelled: Bool, elapsed: Duration) -> RunSummary {
        state.withLock { state in
            let summary = RunSummary(
                succeeded: state.succeeded, failed: state.failed, skipped: state.skipped, total: total,
                milliseconds: wholeMilliseconds(elapsed), cancelled: cancelled)
            guard !state.ended else { return summary }
            state.ended = true
            switch mode {
            case .live:
                clearLive(&state)
                Terminal.err(Terminal.Escape.showCursor)
                Terminal.out(summary.line + "\n")
            case .lines:
                Terminal.out(summary.line + "\n")
            case .json:
                Terminal.out(jsonLine(summary))
            case .quiet:
                break
            }
            return summary
        }
    }

    // MARK: Live drawing (standard error)

    private func clearLive(_ state: inout State) {
        guard state.drawnLines > 0 else { return }
        Terminal.err(Terminal.Escape.up(state.drawnLines) + Terminal.Escape.clearToEnd)
        state.drawnLines = 0
    }

    private func redraw(_ state: inout State, force: Bool) {
        guard mode == .live, !state.ended else { return }
        let now = clock.now
        if !force, let last = state.lastDraw, now - last < redrawInterval { return }
        state.lastDraw = now
        let width = max(40, Terminal.columns)
        var lines: [String] = []
        // In list order (ids are positions in the list), at most 12.
        for id in state.running.keys.sorted().prefix(12) {
            guard let item = state.running[id] else { continue }
            lines.append(ProgressBar.download(label: item.label, received: item.received, expected: item.expected, width: width))
        }
        if state.running.count > 12 { lines.append("  … and \(state.running.count - 12) more downloading") }
        let done = state.succeeded + state.failed + state.skipped
        lines.append(ProgressBar.overall(done: done, failed: state.failed, total: total, width: width))
        var text = Terminal.Escape.up(state.drawnLines) + Terminal.Escape.clearToEnd
        for line in lines { text += line + "\n" }
        Terminal.err(text)
        state.drawnLines = lines.count
    }

}

/// The `started` and `progress` JSON lines.
private struct ProgressEvent: Encodable {
    var event: String
    var url: String
    var received: Int?
    var expected: Int?
    /// Previews: the partial image's size.
    var width: Int?
    var height: Int?
}
