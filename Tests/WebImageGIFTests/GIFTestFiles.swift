import Foundation
import WebImage

@testable import WebImageGIF

/// Hand-built GIFs for the decoder tests, written frame by frame with our giflib writer.
enum GIFTestFiles {
    static let red = RGBA8(r: 255, g: 0, b: 0)
    static let green = RGBA8(r: 0, g: 255, b: 0)
    static let blue = RGBA8(r: 0, g: 0, b: 255)
    static let white = RGBA8(r: 255, g: 255, b: 255)
    static let palette = [red, green, blue, white]

    /// A 4×1 animation exercising every disposal (delays 0, 1, 2, 7, 10 centiseconds):
    /// - frame 0: RRRR, keep
    /// - frame 1: GG at x = 1, disposal 2 (restore to background)
    /// - frame 2: B at x = 3, disposal 3 (restore to previous)
    /// - frame 3: W at x = 0, keep
    /// - frame 4: full width, indices [3, 1, 3, 3] with 3 transparent
    static func disposals(loopCount: Int? = 0) throws -> Data {
        Data(
            try GIFWriter.write { writer in
                try writer.putScreen(width: 4, height: 1, palette: palette)
                if let loopCount { try writer.putLoopCount(loopCount) }
                try writer.putControl(disposal: 1, delayCentiseconds: 0, transparentIndex: nil)
                try writer.putImage(x: 0, y: 0, width: 4, height: 1, indices: [0, 0, 0, 0], palette: nil)
                try writer.putControl(disposal: 2, delayCentiseconds: 1, transparentIndex: nil)
                try writer.putImage(x: 1, y: 0, width: 2, height: 1, indices: [1, 1], palette: nil)
                try writer.putControl(disposal: 3, delayCentiseconds: 2, transparentIndex: nil)
                try writer.putImage(x: 3, y: 0, width: 1, height: 1, indices: [2], palette: nil)
                try writer.putControl(disposal: 0, delayCentiseconds: 7, transparentIndex: nil)
                try writer.putImage(x: 0, y: 0, width: 1, height: 1, indices: [3], palette: nil)
                try writer.putControl(disposal: 1, delayCentiseconds: 10, transparentIndex: 3)
                try writer.putImage(x: 0, y: 0, width: 4, height: 1, indices: [3, 1, 3, 3], palette: nil)
            })
    }

    /// The frames `disposals()` must decode to, as straight RGBA rows.
    static let disposalFrames: [[RGBA8]] = [
        [red, red, red, red],
        [red, green, green, red],
        [red, .clear, .clear, blue],
        [white, .clear, .clear, red],
        [white, green, .clear, red],
    ]

    /// A 3×`height` interlaced still image whose row `y` has palette index `y` (local palette of
    /// distinct colours).
    static func interlaced(height: Int) throws -> (data: Data, palette: [RGBA8]) {
        precondition(height <= 32, "one palette entry per row")
        let palette = (0..<32).map { (i: Int) -> RGBA8 in
            let r = UInt8(i * 8), g = UInt8(255 - i * 8), b = UInt8(i * 7)
            return RGBA8(r: r, g: g, b: b)
        }
        let indices = (0..<height).flatMap { y in [UInt8](repeating: UInt8(y), count: 3) }
        let bytes = try GIFWriter.write { writer in
            try writer.putScreen(width: 3, height: height, palette: nil)
            try writer.putImage(
                x: 0, y: 0, width: 3, height: height, indices: indices, palette: palette, interlaced: true)
        }
        return (Data(bytes), palette)
    }

    /// A still image: `screen` logical screen, one `frame` image at `origin` filled with index 1
    /// (green) over a palette of red, green.
    static func placed(screen: (Int, Int), frame: (Int, Int), origin: (Int, Int), transparent: Bool = false) throws
        -> Data
    {
        Data(
            try GIFWriter.write { writer in
                try writer.putScreen(width: screen.0, height: screen.1, palette: [red, green])
                if transparent { try writer.putControl(disposal: 0, delayCentiseconds: 0, transparentIndex: 0) }
                try writer.putImage(
                    x: origin.0, y: origin.1, width: frame.0, height: frame.1,
                    indices: [UInt8](repeating: 1, count: frame.0 * frame.1), palette: nil)
            })
    }

    /// The straight RGBA pixels of row-major `colors`.
    static func pixels(_ colors: [RGBA8], width: Int) -> PixelBuffer {
        PixelBuffer(
            width: width, height: colors.count / width, alphaMode: .straight,
            bytes: colors.flatMap { [$0.r, $0.g, $0.b, $0.a] })
    }

    /// Decoding options with straight alpha.
    static var straight: ImageDecodingOptions {
        var options = ImageDecodingOptions()
        options.alphaMode = .straight
        return options
    }
}
