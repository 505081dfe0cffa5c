import Foundation
import WebImageKit
import WebImageTerminal

/// One `webimage show` run on the main actor: a ``TerminalImageCell`` per source bound through
/// the manager, drawn in place on a terminal (or printed in turn when output is not one), until
/// every cell is done or the run is cancelled (Ctrl-C).
@MainActor
final class ShowRun: Sendable {
    private let sources: [String]
    private let requests: [ImageRequest]
    private let graphics: TerminalGraphics
    private let cellPixels: CellPixels
    private let layout: GridLayout
    private let enlarges: Bool
    private let playsAnimations: Bool
    private let manager: ImageManager
    private let onTerminal: Bool
    /// The sources that failed, in order, with their errors.
    private(set) var failures: [(String, any Error)] = []

    nonisolated init(
        sources: [String], requests: [ImageRequest], graphics: TerminalGraphics, cellPixels: CellPixels,
        layout: GridLayout, enlarges: Bool, playsAnimations: Bool, manager: ImageManager, onTerminal: Bool
    ) {
        self.sources = sources
        self.requests = requests
        self.graphics = graphics
        self.cellPixels = cellPixels
        self.layout = layout
        self.enlarges = enlarges
        self.playsAnimations = playsAnimations
        self.manager = manager
        self.onTerminal = onTerminal
    }

    /// Loads and draws every source; returns when all are drawn (animations over) or on cancellation.
    func run() async {
        let (done, doneContinuation) = AsyncStream<Void>.makeStream()
        let screen = onTerminal ? TerminalScreen { Terminal.out($0) } : nil
        screen?.reserve(rows: layout.rows)
        let cells = layout.boxes.enumerated().map { index, box in
            TerminalImageCell(
                layout: box, graphics: graphics, cellPixels: cellPixels,
                label: URL(string: sources[index])?.lastPathComponent.nonEmpty ?? sources[index], screen: screen,
                imageID: UInt32(index + 1), playsAnimations: playsAnimations, enlarges: enlarges,
                onDone: { doneContinuation.yield() })
        }
        for (cell, request) in zip(cells, requests) {
            manager.load(request, into: cell) { [weak cell] result in
                if case .failure(let error) = result { cell?.showFailure(error) }
            }
        }
        var finished = 0
        for await _ in done {
            finished += 1
            if finished == cells.count { break }
        }
        for cell in cells { cell.stop() }
        screen?.finish(rows: layout.rows)
        failures = zip(sources, cells).compactMap { source, cell in cell.failure.map { (source, $0) } }
        guard screen == nil else { return }
        for cell in cells where cell.failure == nil {
            switch cell.drawing {
            case .lines(let lines): Terminal.out(lines.joined(separator: "\n") + "\n")
            case .sequence(let sequence, _): Terminal.out(sequence + "\n")
            case nil: break
            }
        }
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
