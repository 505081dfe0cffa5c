/// How images are drawn in a terminal: an inline-image protocol, or text cells.
///
/// ``detect(environment:)`` picks one from the environment; `webimage show --protocol` forces one.
///
/// ```swift
/// let graphics = TerminalGraphics.detect(environment: ProcessInfo.processInfo.environment)
/// ```
public enum TerminalGraphics: String, Sendable, CaseIterable {
    /// kitty's graphics protocol (`ESC _ G … ESC \`, PNG payload): kitty, Ghostty, Konsole.
    case kitty
    /// iTerm2's inline images (`ESC ] 1337 ; File=… BEL`, PNG payload): iTerm2, WezTerm, mintty.
    case iterm2
    /// DEC sixel graphics (`ESC P q … ESC \`, 256-colour palette from libsixel): mlterm, foot,
    /// contour, xterm with `-ti vt340`.
    case sixel
    /// Unicode upper half blocks (`▀`), two pixels per cell in 24-bit colour: any terminal with
    /// true colour, including tmux and screen.
    case blocks

    /// The protocol the terminal described by `environment` understands, checked in this order:
    ///
    /// 1. `TMUX` or `STY` set (tmux, GNU screen): ``blocks``. Multiplexers drop inline-image
    ///    escape codes unless a passthrough is configured; force a protocol to use one anyway.
    /// 2. `KITTY_WINDOW_ID` set, `TERM` `xterm-kitty` or `xterm-ghostty`, or `TERM_PROGRAM`
    ///    `ghostty`: ``kitty``. `KONSOLE_VERSION` set: ``kitty``.
    /// 3. `TERM_PROGRAM` `iTerm.app`, `WezTerm` or `mintty`, or `LC_TERMINAL` `iTerm2`: ``iterm2``.
    /// 4. `TERM` starting with `mlterm`, `foot`, `contour` or `yaft`: ``sixel``.
    /// 5. Otherwise ``blocks``.
    public static func detect(environment: [String: String]) -> TerminalGraphics {
        func value(_ name: String) -> String { environment[name] ?? "" }
        let term = value("TERM")
        let program = value("TERM_PROGRAM")
        if !value("TMUX").isEmpty || !value("STY").isEmpty { return .blocks }
        if !value("KITTY_WINDOW_ID").isEmpty || term == "xterm-kitty" || term == "xterm-ghostty"
            || program.lowercased() == "ghostty" || !value("KONSOLE_VERSION").isEmpty
        {
            return .kitty
        }
        if ["iTerm.app", "WezTerm", "mintty"].contains(program) || value("LC_TERMINAL") == "iTerm2" { return .iterm2 }
        if ["mlterm", "foot", "contour", "yaft"].contains(where: { term.hasPrefix($0) }) { return .sixel }
        return .blocks
    }

    /// The image pixels one text cell shows: 1×2 for ``blocks`` (a half block is one pixel),
    /// the terminal's cell size in pixels for the image protocols (`fallback` when it is unknown).
    public func cellPixels(terminal: TerminalSize, fallback: CellPixels = CellPixels(width: 10, height: 20)) -> CellPixels {
        if self == .blocks { return CellPixels(width: 1, height: 2) }
        return terminal.cellPixels ?? fallback
    }
}

/// The size of one text cell in pixels.
public struct CellPixels: Sendable, Hashable {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// A cell of `width`×`height` pixels.
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }
}
