import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageGIF

/// One giflib session decodes every frame of a GIF in turn: palettes, buffers and errors must
/// not leak from one frame into the next.
@Suite("GIF frame decoder: one giflib session")
struct GIFFrameDecoderTests {
    let coder = GIFCoder()

    static let (red, green, blue, white) = (GIFTestFiles.red, GIFTestFiles.green, GIFTestFiles.blue, GIFTestFiles.white)

    /// Global palette, then local, global, another local (interlaced), global: each frame covers
    /// the 2×2 screen, so each composited frame shows exactly that frame's colours.
    @Test func switchesBetweenLocalAndGlobalPalettes() throws {
        let data = Data(
            try GIFWriter.write { writer in
                try writer.putScreen(width: 2, height: 2, palette: [Self.red, Self.green])
                try writer.putImage(x: 0, y: 0, width: 2, height: 2, indices: [0, 1, 1, 0], palette: nil)
                try writer.putImage(
                    x: 0, y: 0, width: 2, height: 2, indices: [0, 1, 0, 1], palette: [Self.blue, Self.white])
                try writer.putImage(x: 0, y: 0, width: 2, height: 2, indices: [1, 1, 0, 0], palette: nil)
                try writer.putImage(
                    x: 0, y: 0, width: 2, height: 2, indices: [1, 0, 0, 1], palette: [Self.white, Self.blue],
                    interlaced: true)
                try writer.putImage(x: 0, y: 0, width: 2, height: 2, indices: [0, 0, 1, 1], palette: nil)
            })
        let expected: [[RGBA8]] = [
            [Self.red, Self.green, Self.green, Self.red],
            [Self.blue, Self.white, Self.blue, Self.white],
            [Self.green, Self.green, Self.red, Self.red],
            [Self.blue, Self.white, Self.white, Self.blue],
            [Self.red, Self.red, Self.green, Self.green],
        ]
        let animation = try #require(try coder.decode(data, options: GIFTestFiles.straight).animation)
        #expect(animation.frameCount == expected.count)
        for (index, colors) in expected.enumerated() {
            #expect(try animation.frame(at: index).pixels == GIFTestFiles.pixels(colors, width: 2), "frame \(index)")
        }
    }

    /// One frame of ``mixedSizes()``: rectangle, indices, optional local palette, flags.
    struct Frame {
        var x: Int, y: Int, width: Int, height: Int
        var indices: [UInt8]
        var palette: [RGBA8]?
        var interlaced = false
        var transparent: Int?
    }

    static let global: [RGBA8] = (0..<16).map { (i: Int) -> RGBA8 in
        let r = UInt8(i * 16), g = UInt8(255 - i * 16), b = UInt8(i * 5)
        return RGBA8(r: r, g: g, b: b)
    }

    /// Frames that grow, shrink, overflow the 19×6 screen (clipped), interlace and use
    /// transparency: runs of eight and more transparent and opaque pixels, and mixed runs.
    static func mixedFrames() -> [Frame] {
        func pattern(_ count: Int, _ seed: Int, modulo: Int = 16) -> [UInt8] {
            (0..<count).map { UInt8(($0 * 7 + seed * 3 + $0 / 5) % modulo) }
        }
        let local: [RGBA8] = (0..<8).map { (i: Int) -> RGBA8 in RGBA8(r: 200, g: UInt8(i * 30), b: 40) }
        let runs = [UInt8](repeating: 0, count: 9) + [UInt8](repeating: 3, count: 10) + pattern(95, 6)
        return [
            Frame(x: 0, y: 0, width: 19, height: 6, indices: pattern(114, 1)),
            Frame(x: 1, y: 1, width: 3, height: 2, indices: pattern(6, 2, modulo: 8), palette: local, interlaced: true),
            Frame(x: 0, y: 0, width: 22, height: 8, indices: pattern(176, 3), transparent: 5),
            Frame(x: 2, y: 0, width: 17, height: 6, indices: pattern(102, 4), interlaced: true),
            Frame(x: 0, y: 0, width: 19, height: 6, indices: runs, transparent: 0),
        ]
    }

    /// The canvas after each frame, composited the obvious way (every frame kept, clipped).
    static func reference(_ frames: [Frame], width: Int, height: Int) -> [PixelBuffer] {
        var canvas = [RGBA8](repeating: global[0], count: width * height)
        return frames.map { frame in
            let palette = frame.palette ?? global
            for row in 0..<frame.height where frame.y + row < height {
                for column in 0..<frame.width where frame.x + column < width {
                    let index = Int(frame.indices[row * frame.width + column])
                    if index == frame.transparent { continue }
                    canvas[(frame.y + row) * width + frame.x + column] = palette[index]
                }
            }
            return GIFTestFiles.pixels(canvas, width: width)
        }
    }

    @Test func framesOfEverySizeMatchAPlainCompositor() throws {
        let frames = Self.mixedFrames()
        let data = Data(
            try GIFWriter.write { (writer: GIFWriter) throws in
                try writer.putScreen(width: 19, height: 6, palette: Self.global)
                for frame in frames {
                    try writer.putControl(disposal: 1, delayCentiseconds: 5, transparentIndex: frame.transparent)
                    try writer.putImage(
                        x: frame.x, y: frame.y, width: frame.width, height: frame.height, indices: frame.indices,
                        palette: frame.palette, interlaced: frame.interlaced)
                }
            })
        let expected = Self.reference(frames, width: 19, height: 6)
        let animation = try #require(try coder.decode(data, options: GIFTestFiles.straight).animation)
        for (index, pixels) in expected.enumerated() {
            #expect(try animation.frame(at: index).pixels == pixels, "frame \(index)")
        }
        // Backwards and again: the session is reused from frame 0.
        for index in [2, 0, 4, 1] {
            #expect(try animation.frame(at: index).pixels == expected[index], "frame \(index) again")
        }
    }

    @Test func aDamagedFrameDoesNotSpoilTheOthers() throws {
        var bytes = [UInt8](try GIFTestFiles.disposals())
        let container = try bytes.withUnsafeBytes { try GIFContainer(parsing: $0) }
        // Frame 3's LZW minimum code size becomes 11, which giflib refuses.
        bytes[container.frames[3].descriptorOffset + 10] = 11
        let animation = try #require(try coder.decode(Data(bytes), options: GIFTestFiles.straight).animation)
        #expect(try animation.frame(at: 2).pixels == GIFTestFiles.pixels(GIFTestFiles.disposalFrames[2], width: 4))
        let error = try #require(throws: WebImageError.self) { try animation.frame(at: 3) }
        #expect(error.code == .badImageData)
        #expect(try animation.frame(at: 1).pixels == GIFTestFiles.pixels(GIFTestFiles.disposalFrames[1], width: 4))
        #expect(throws: WebImageError.self) { try animation.frame(at: 4) }
        #expect(try animation.frame(at: 0).pixels == GIFTestFiles.pixels(GIFTestFiles.disposalFrames[0], width: 4))
    }

    @Test func theSessionKeepsNoCopyOfPastDescriptors() throws {
        let data = try coder.encode(ImageFixtures.animation(frames: 40), as: .gif, options: ImageEncodingOptions())
        try [UInt8](data).withUnsafeBytes { bytes in
            let container = try GIFContainer(parsing: bytes)
            #expect(container.frames.count == 40)
            let decoder = GIFLibFrameDecoder(retainedCapacity: container.canvasSize.pixelCount)
            for record in container.frames {
                let size = try decoder.decode(bytes, container: container, record: record, maxPixelCount: 1 << 20) {
                    PixelSize(width: $0.width, height: $0.height)
                }
                #expect(size.pixelCount > 0)
                #expect(decoder.heldDescriptorCount == 0)
            }
        }
    }
}
