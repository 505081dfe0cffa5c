import Testing
import WebImage
import WebImageTerminal

@Suite("Half-block renderer")
struct HalfBlockRendererTests {
    static let red = RGBA8(r: 255, g: 0, b: 0)
    static let green = RGBA8(r: 0, g: 255, b: 0)
    static let blue = RGBA8(r: 0, g: 0, b: 255)
    static let white = RGBA8.white
    static let black = RGBA8.black

    /// 3×3 pixels: red green clear / blue blue white / clear black white.
    static func known() -> PixelBuffer {
        let rows: [[RGBA8]] = [[red, green, .clear], [blue, blue, white], [.clear, black, white]]
        var pixels = PixelBuffer(width: 3, height: 3, alphaMode: .straight)
        for (y, row) in rows.enumerated() {
            for (x, pixel) in row.enumerated() { pixels[x, y] = pixel }
        }
        return pixels
    }

    @Test func aKnownImageBecomesExactCellsAndColours() {
        let lines = HalfBlockRenderer.lines(for: Self.known())
        let esc = "\u{1B}"
        #expect(lines == [
            // red over blue, green over blue (same background, not repeated), clear over white (▄, default background)
            "\(esc)[48;2;0;0;255m\(esc)[38;2;255;0;0m▀\(esc)[38;2;0;255;0m▀\(esc)[49m\(esc)[38;2;255;255;255m▄\(esc)[0m",
            // the odd last row: its lower pixels are outside the image
            " \(esc)[38;2;0;0;0m▀\(esc)[38;2;255;255;255m▀\(esc)[0m",
        ])
    }

    @Test func alphaBelowHalfIsTransparentAndPremultipliedInputIsStraightened() {
        var pixels = PixelBuffer(width: 2, height: 2, alphaMode: .straight)
        pixels[0, 0] = RGBA8(r: 200, g: 100, b: 50, a: 127)
        pixels[1, 0] = RGBA8(r: 200, g: 100, b: 50, a: 128)
        pixels[0, 1] = RGBA8(r: 10, g: 20, b: 30, a: 255)
        pixels[1, 1] = .clear
        let straight = HalfBlockRenderer.lines(for: pixels)
        #expect(straight == ["\u{1B}[38;2;10;20;30m▄\u{1B}[38;2;200;100;50m▀\u{1B}[0m"])
        // The same pixels premultiplied come out the same (within the premultiply rounding of a=128).
        let premultiplied = HalfBlockRenderer.lines(for: pixels.premultiplied())
        #expect(premultiplied[0].hasPrefix("\u{1B}[38;2;10;20;30m▄\u{1B}[38;2;"))
        #expect(premultiplied[0].hasSuffix("▀\u{1B}[0m"))
    }

    @Test func everyLineHasOneCellPerPixelColumn() {
        var pixels = PixelBuffer(width: 7, height: 5, alphaMode: .straight, fill: Self.red)
        pixels[3, 4] = Self.green
        let lines = HalfBlockRenderer.lines(for: pixels)
        #expect(lines.count == 3)
        for line in lines {
            let glyphs = line.filter { "▀▄ ".contains($0) }
            #expect(glyphs.count == 7)
        }
    }
}
