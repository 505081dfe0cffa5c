public import WebImage

/// Draws pixels as Unicode half blocks in 24-bit colour: each text cell shows two pixels, the
/// upper one as the foreground of `▀`, the lower one as the background.
///
/// Pixels with alpha below 128 are transparent (the terminal's own background shows): a cell
/// with a transparent lower pixel uses the default background, one with a transparent upper pixel
/// draws `▄` instead, and a cell with both transparent is a space. Other pixels are drawn at full
/// opacity (their straight colour). Colours are SGR `38;2;R;G;B` / `48;2;R;G;B`, written only
/// when they change along a line; every line ends with `ESC[0m`.
///
/// ```swift
/// for line in HalfBlockRenderer.lines(for: pixels) { print(line) }
/// ```
public enum HalfBlockRenderer {
    /// One string per cell row: `(height + 1) / 2` lines of `width` cells.
    public static func lines(for pixels: PixelBuffer) -> [String] {
        let straight = pixels.converted(to: .straight)
        var lines: [String] = []
        lines.reserveCapacity((straight.height + 1) / 2)
        var y = 0
        while y < straight.height {
            lines.append(line(straight, top: y))
            y += 2
        }
        return lines
    }

    private static func line(_ pixels: PixelBuffer, top y: Int) -> String {
        var out = ""
        var foreground: RGBA8?
        var background: RGBA8?
        var defaultBackground = true
        for x in 0..<pixels.width {
            let upper = visible(pixels[x, y])
            let lower = y + 1 < pixels.height ? visible(pixels[x, y + 1]) : nil
            let glyph: Character
            let wantForeground: RGBA8?
            let wantBackground: RGBA8?
            switch (upper, lower) {
            case (nil, nil):
                (glyph, wantForeground, wantBackground) = (" ", nil, nil)
            case (let top?, nil):
                (glyph, wantForeground, wantBackground) = ("▀", top, nil)
            case (nil, let bottom?):
                (glyph, wantForeground, wantBackground) = ("▄", bottom, nil)
            case (let top?, let bottom?):
                (glyph, wantForeground, wantBackground) = ("▀", top, bottom)
            }
            if let wantBackground {
                if wantBackground != background || defaultBackground {
                    out += "\u{1B}[48;2;\(wantBackground.r);\(wantBackground.g);\(wantBackground.b)m"
                    background = wantBackground
                    defaultBackground = false
                }
            } else if !defaultBackground {
                out += "\u{1B}[49m"
                background = nil
                defaultBackground = true
            }
            if let wantForeground, wantForeground != foreground {
                out += "\u{1B}[38;2;\(wantForeground.r);\(wantForeground.g);\(wantForeground.b)m"
                foreground = wantForeground
            }
            out.append(glyph)
        }
        return out + "\u{1B}[0m"
    }

    /// The pixel's colour, opaque, or nil when it is transparent.
    private static func visible(_ pixel: RGBA8) -> RGBA8? {
        pixel.a < 128 ? nil : RGBA8(r: pixel.r, g: pixel.g, b: pixel.b)
    }
}
