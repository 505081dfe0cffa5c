public import WebImage

/// An ``ImageTarget`` that is a box of text cells in a terminal: `webimage show`'s view.
///
/// Bound with ``ImageManager/load(_:into:key:placeholder:failureImage:options:transition:progress:completion:)``,
/// it draws a loading box with a progress bar while the image loads (a nil image is that box; it
/// is its own ``ImageIndicator``), the image when it arrives (scaled to fit the box with
/// ``CellFit``, drawn with its ``TerminalGraphics``), and ``showFailure(_:)`` draws a red error
/// box. Animated images play in place with an ``AnimatedImagePlayer`` until their loop count
/// ends (``stop()`` ends them sooner) unless the cell draws first frames only. Transitions are
/// not drawn: a terminal shows the image at once.
///
/// Without a screen (output that is not a terminal) the cell draws nothing itself and keeps the
/// first frame's drawing in ``drawing`` for the caller to print.
///
/// ```swift
/// let cell = TerminalImageCell(layout: .init(row: 0, column: 0, columns: 40, rows: 20), graphics: .blocks,
///                              cellPixels: CellPixels(width: 1, height: 2), label: "cat.png", screen: screen)
/// manager.load(url, into: cell) { if case .failure(let error) = $0 { cell.showFailure(error) } }
/// ```
@MainActor
public final class TerminalImageCell: ImageTarget, ImageIndicator {
    /// Where a cell sits in the reserved rectangle and how big its box is, in text cells.
    public struct Layout: Sendable, Hashable {
        /// The box's first row.
        public var row: Int
        /// The box's first column.
        public var column: Int
        /// Columns across.
        public var columns: Int
        /// Rows down.
        public var rows: Int
        /// A box of `columns`×`rows` at (`row`, `column`).
        public init(row: Int, column: Int, columns: Int, rows: Int) {
            (self.row, self.column, self.columns, self.rows) = (row, column, max(1, columns), max(1, rows))
        }
    }

    /// The cell's loads.
    public let imageBinder = ImageBinder()
    /// The box.
    public let layout: Layout
    /// How images are drawn.
    public let graphics: TerminalGraphics
    /// The image pixels one text cell shows.
    public let cellPixels: CellPixels
    /// The name in the box's border.
    public let label: String
    /// Whether animations play (otherwise their first frame is drawn).
    public let playsAnimations: Bool
    /// The last image drawing (a still, or the first frame of an animation): what a caller
    /// without a screen prints.
    public private(set) var drawing: CellDrawing?
    /// Whether the cell is done: its image is drawn and any animation over, or it failed.
    public private(set) var isDone = false
    /// The error ``showFailure(_:)`` drew, if any.
    public private(set) var failure: (any Error)?
    /// Whether images smaller than the box are enlarged to fill it.
    public let enlarges: Bool

    private let screen: TerminalScreen?
    private let imageID: UInt32
    private let onDone: @MainActor () -> Void
    private let clock: any Clock<Duration>
    private var fraction: Double?
    private var playback: Task<Void, Never>?

    /// A cell drawing into `screen` (nil: keep the drawing for the caller); `imageID` names its
    /// kitty image (distinct per cell); animations play on `clock`; `onDone` runs once when
    /// ``isDone`` becomes true.
    public init(
        layout: Layout, graphics: TerminalGraphics, cellPixels: CellPixels, label: String, screen: TerminalScreen?,
        imageID: UInt32 = 1, playsAnimations: Bool = true, enlarges: Bool = false,
        clock: any Clock<Duration> = ContinuousClock(), onDone: @escaping @MainActor () -> Void = {}
    ) {
        self.clock = clock
        self.layout = layout
        self.graphics = graphics
        self.cellPixels = cellPixels
        self.label = label
        self.screen = screen
        self.imageID = imageID
        self.playsAnimations = playsAnimations && screen != nil
        self.enlarges = enlarges
        self.onDone = onDone
    }

    /// The cell itself: its loading box shows the progress.
    public var imageIndicator: (any ImageIndicator)? { self }

    // MARK: ImageTarget

    /// Draws `image` (the loading box for nil) when `key` is ``ImageBinder/Key/image``; other keys
    /// have nowhere to go. The transition is ignored.
    public func setImage(_ image: Image?, for key: ImageBinder.Key, transition: ImageTransition?) {
        guard key == .image else { return }
        guard let image else {
            drawLoadingBox()
            return
        }
        show(image)
    }

    // MARK: ImageIndicator

    /// Draws the loading box with an empty bar.
    public func startAnimatingIndicator() {
        fraction = nil
        drawLoadingBox()
    }

    /// Nothing: the image or the error box replaces the loading box.
    public func stopAnimatingIndicator() {}

    /// Redraws the loading box's bar at `fraction`.
    public func updateIndicatorProgress(_ fraction: Double) {
        self.fraction = fraction
        drawLoadingBox()
    }

    // MARK: Outcomes

    /// Draws the error box and marks the cell done.
    public func showFailure(_ error: any Error) {
        guard !isDone else { return }
        failure = error
        let message = (error as? WebImageError).map { "\($0.code): \($0.message)" } ?? String(describing: error)
        let lines = CellBox.failure(label: label, message: message, columns: layout.columns, rows: layout.rows)
        screen?.draw(lines: lines, row: layout.row, column: layout.column)
        drawing = .lines(lines)
        markDone()
    }

    /// Stops the animation (the frame on screen stays) and marks the cell done.
    public func stop() {
        playback?.cancel()
        playback = nil
        imageBinder.cancelAll()
        markDone()
    }

    // MARK: Drawing

    private func drawLoadingBox() {
        guard let screen, !isDone else { return }
        let lines = CellBox.loading(label: label, fraction: fraction, columns: layout.columns, rows: layout.rows)
        screen.draw(lines: lines, row: layout.row, column: layout.column)
    }

    private func show(_ image: Image) {
        let upright = ImageCodersManager.Encoding.oriented(image)
        let fit = CellFit(
            image: upright.pixelSize, cell: cellPixels, box: (layout.columns, layout.rows), enlarge: enlarges)
        // Clear the box (the loading box may be larger than the image), then draw.
        screen?.draw(
            lines: Array(repeating: String(repeating: " ", count: layout.columns), count: layout.rows),
            row: layout.row, column: layout.column)
        do {
            try draw(upright.pixels, fit: fit)
        } catch {
            showFailure(error)
            return
        }
        guard playsAnimations, upright.isAnimated, let player = AnimatedImagePlayer(image: upright, clock: clock) else {
            markDone()
            return
        }
        player.play()
        playback = Task { @MainActor [weak self] in
            for await frame in player.frames {
                guard let self, !Task.isCancelled else { return }
                // A frame that cannot be drawn ends the animation on the frame before.
                guard (try? self.draw(frame.pixels, fit: fit)) != nil else { break }
            }
            self?.markDone()
        }
    }

    private func draw(_ pixels: PixelBuffer, fit: CellFit) throws {
        let scaled = Resampler.resample(pixels, to: fit.pixels)
        let drawing = try CellDrawing.render(
            scaled, graphics: graphics, columns: fit.columns, rows: fit.rows, imageID: imageID, moveCursor: screen == nil)
        if self.drawing == nil || screen != nil { self.drawing = drawing }
        guard let screen else { return }
        // Centre the image in its box.
        let row = layout.row + (layout.rows - fit.rows) / 2
        let column = layout.column + (layout.columns - fit.columns) / 2
        switch drawing {
        case .lines(let lines): screen.draw(lines: lines, row: row, column: column)
        case .sequence(let sequence, _): screen.draw(sequence: sequence, row: row, column: column)
        }
    }

    private func markDone() {
        guard !isDone else { return }
        isDone = true
        onDone()
    }
}
