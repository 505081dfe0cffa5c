import Testing
import WebImage
import WebImageTerminal

@Suite("Protocol detection, fitting and layout")
struct LayoutAndDetectionTests {
    @Test(arguments: [
        ([String: String](), TerminalGraphics.blocks),
        (["TERM": "xterm-256color", "COLORTERM": "truecolor"], .blocks),
        (["TERM": "xterm-kitty"], .kitty),
        (["KITTY_WINDOW_ID": "1", "TERM": "xterm-256color"], .kitty),
        (["TERM": "xterm-ghostty"], .kitty),
        (["TERM_PROGRAM": "ghostty"], .kitty),
        (["KONSOLE_VERSION": "230804"], .kitty),
        (["TERM_PROGRAM": "iTerm.app"], .iterm2),
        (["LC_TERMINAL": "iTerm2", "TERM": "xterm-256color"], .iterm2),
        (["TERM_PROGRAM": "WezTerm"], .iterm2),
        (["TERM": "mlterm"], .sixel),
        (["TERM": "foot-extra"], .sixel),
        (["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "1"], .blocks),
        (["STY": "123.pts-0", "TERM_PROGRAM": "iTerm.app"], .blocks),
    ])
    func detection(environment: [String: String], expected: TerminalGraphics) {
        #expect(TerminalGraphics.detect(environment: environment) == expected)
    }

    @Test func cellPixelsComeFromTheTerminalWhenItReportsThem() {
        let reported = TerminalSize(columns: 100, rows: 50, pixelWidth: 900, pixelHeight: 1000)
        #expect(TerminalGraphics.kitty.cellPixels(terminal: reported) == CellPixels(width: 9, height: 20))
        #expect(TerminalGraphics.blocks.cellPixels(terminal: reported) == CellPixels(width: 1, height: 2))
        let silent = TerminalSize(columns: 100, rows: 50)
        #expect(TerminalGraphics.sixel.cellPixels(terminal: silent) == CellPixels(width: 10, height: 20))
    }

    @Test func fitKeepsTheAspectRatioInsideTheBox() {
        // 640×480 in 80×23 half-block cells (80×46 pixels): height bound, 61×46 pixels.
        let fit = CellFit(image: PixelSize(width: 640, height: 480), cell: CellPixels(width: 1, height: 2), box: (80, 23))
        #expect(fit.pixels == PixelSize(width: 61, height: 46))
        #expect(fit.columns == 61 && fit.rows == 23)
        // A small image is not enlarged unless asked.
        let small = CellFit(image: PixelSize(width: 8, height: 8), cell: CellPixels(width: 1, height: 2), box: (80, 23))
        #expect(small.pixels == PixelSize(width: 8, height: 8) && small.rows == 4)
        let enlarged = CellFit(
            image: PixelSize(width: 8, height: 8), cell: CellPixels(width: 1, height: 2), box: (80, 23), enlarge: true)
        #expect(enlarged.pixels == PixelSize(width: 46, height: 46) && enlarged.columns == 46)
        // Cells of 10×20 pixels: a 400×100 image in a 20×10 box is 200×50 pixels, 20×3 cells.
        let wide = CellFit(image: PixelSize(width: 400, height: 100), cell: CellPixels(width: 10, height: 20), box: (20, 10))
        #expect(wide.pixels == PixelSize(width: 200, height: 50))
        #expect(wide.columns == 20 && wide.rows == 3)
    }

    @Test func gridSharesTheTerminal() throws {
        let grid = try GridLayout(count: 4, columns: 2, terminal: TerminalSize(columns: 81, rows: 25))
        #expect(grid.rows == 24)
        #expect(grid.boxes.map(\.row) == [0, 0, 12, 12])
        #expect(grid.boxes.map(\.column) == [0, 41, 0, 41])
        #expect(grid.boxes.allSatisfy { $0.columns == 40 && $0.rows == 12 })
        let limited = try GridLayout(count: 3, columns: 3, terminal: TerminalSize(columns: 80, rows: 24), width: 10, height: 5)
        #expect(limited.boxes.map(\.column) == [0, 11, 22])
        #expect(limited.rows == 5)
        #expect(throws: GridLayout.LayoutError.self) {
            try GridLayout(count: 40, columns: 1, terminal: TerminalSize(columns: 80, rows: 24))
        }
    }

    @Test func loadingAndFailureBoxesFillTheirCells() {
        let loading = CellBox.loading(label: "cat.png", fraction: 0.4, columns: 24, rows: 5)
        #expect(loading == [
            "┌ cat.png ─────────────┐",
            "│                      │",
            "│ ██████░░░░░░░░░░ 40% │",
            "│                      │",
            "└──────────────────────┘",
        ])
        let unknown = CellBox.loading(label: "x", fraction: nil, columns: 10, rows: 1)
        #expect(unknown == ["x ░░░░░░  "])
        let failure = CellBox.failure(label: "a.png", message: "badImageData: not an image", columns: 14, rows: 4)
        #expect(failure == [
            "\u{1B}[31m┌ a.png ─────┐\u{1B}[0m",
            "\u{1B}[31m│ ✗ badImage │\u{1B}[0m",
            "\u{1B}[31m│ Data: not  │\u{1B}[0m",
            "\u{1B}[31m└────────────┘\u{1B}[0m",
        ])
    }
}
