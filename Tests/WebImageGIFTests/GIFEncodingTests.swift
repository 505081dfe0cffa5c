import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageGIF

@Suite("GIF encoding")
struct GIFEncodingTests {
    let coder = GIFCoder()

    /// 64×32 pixels using exactly `colors` (at most 256) distinct opaque colours.
    static func palettized(colors: Int) -> PixelBuffer {
        var pixels = PixelBuffer(width: 64, height: 32, alphaMode: .straight)
        for y in 0..<32 {
            for x in 0..<64 {
                let c = (x + y * 64) % colors
                pixels[x, y] = RGBA8(r: UInt8(c * 37 % 256), g: UInt8(c * 101 % 256), b: UInt8(c))
            }
        }
        return pixels
    }

    @Test(arguments: [1, 2, 17, 256])
    func roundTripsPaletteImagesExactly(colors: Int) throws {
        let pixels = Self.palettized(colors: colors)
        let data = try coder.encode(Image(pixels: pixels), as: .gif, options: .init())
        #expect(ImageFormat.detect(in: data) == .gif)
        let decoded = try coder.decode(data, options: GIFTestFiles.straight)
        #expect(decoded.pixels == pixels)
        #expect(decoded.animation == nil)
        #expect(!decoded.hasAlpha)
    }

    @Test func roundTripsTransparencyAtTheHalfwayThreshold() throws {
        var pixels = Self.palettized(colors: 200)
        for x in 0..<64 {
            pixels[x, 0] = RGBA8(r: 9, g: 9, b: 9, a: 0)
            pixels[x, 1] = RGBA8(r: 200, g: 10, b: 10, a: 127)
            pixels[x, 2] = RGBA8(r: 10, g: 200, b: 10, a: 128)
        }
        let data = try coder.encode(Image(pixels: pixels), as: .gif, options: .init())
        let decoded = try coder.decode(data, options: GIFTestFiles.straight)
        #expect(decoded.hasAlpha)
        for x in 0..<64 {
            #expect(decoded.pixels[x, 0] == .clear)
            #expect(decoded.pixels[x, 1] == .clear)
            #expect(decoded.pixels[x, 2] == RGBA8(r: 10, g: 200, b: 10))
        }
        for y in 3..<32 {
            for x in 0..<64 { #expect(decoded.pixels[x, y] == pixels[x, y]) }
        }
    }

    @Test func acceptsPremultipliedInput() throws {
        var straight = PixelBuffer(width: 2, height: 1, alphaMode: .straight)
        straight[0, 0] = RGBA8(r: 200, g: 100, b: 50, a: 255)
        straight[1, 0] = RGBA8(r: 200, g: 100, b: 50, a: 0)
        let data = try coder.encode(Image(pixels: straight.premultiplied()), as: .gif, options: .init())
        let decoded = try coder.decode(data, options: GIFTestFiles.straight)
        #expect(decoded.pixels[0, 0] == RGBA8(r: 200, g: 100, b: 50))
        #expect(decoded.pixels[1, 0] == .clear)
    }

    @Test(arguments: [true, false])
    func gradientsComeBackClose(dithering: Bool) throws {
        let pixels = ImageFixtures.gradient(width: 96, height: 64, alphaMode: .straight)
        let data = try GIFCoder(dithering: dithering).encode(Image(pixels: pixels), as: .gif, options: .init())
        let decoded = try coder.decode(data, options: GIFTestFiles.straight)
        let error = ImageFixtures.meanAbsoluteDifference(decoded.pixels, pixels)
        #expect(error > 0)  // more than 256 colours: it must have been quantized
        #expect(error < 3.5, "mean error \(error)")
    }

    @Test func encodesAnimations() throws {
        let durations = [0.05, 0.01, 0.2, 0.123]
        let frames = durations.enumerated().map { index, duration in
            AnimationFrame(pixels: ImageFixtures.movingSquare(index: index), duration: duration)
        }
        let source = Image(pixels: frames[0].pixels, animation: InMemoryAnimation(frames: frames, loopCount: 3))
        let data = try coder.encode(source, as: .gif, options: .init())
        let decoded = try coder.decode(data, options: GIFTestFiles.straight)
        let animation = try #require(decoded.animation)
        #expect(animation.frameCount == 4)
        #expect(animation.loopCount == 3)
        // 0.01 s is stored as 1 cs and shown for 100 ms; 0.123 s rounds to 12 cs.
        #expect((0..<4).map { animation.duration(at: $0) } == [0.05, 0.1, 0.2, 0.12])
        for index in 0..<4 {
            let expected = ImageFixtures.movingSquare(index: index).unpremultiplied()
            #expect(try animation.frame(at: index).pixels == expected, "frame \(index)")
        }
        // firstFrameOnly writes a still image.
        let still = try coder.decode(try coder.encode(source, as: .gif, options: .init(firstFrameOnly: true)))
        #expect(still.animation == nil)
    }

    @Test(arguments: [0, 1, 2, 65535])
    func writesTheLoopCountOnlyWhenNeeded(loopCount: Int) throws {
        let data = try coder.encode(ImageFixtures.animation(frames: 2, loopCount: loopCount), as: .gif, options: .init())
        let hasExtension = data.range(of: Data("NETSCAPE2.0".utf8)) != nil
        #expect(hasExtension == (loopCount != 1))
        #expect(try #require(try coder.decode(data).animation).loopCount == loopCount)
    }

    @Test func clearsBeforeFramesWithTransparency() throws {
        // Frame 1 is transparent where frame 0 was opaque: it must not show frame 0 through.
        let opaque = PixelBuffer(width: 4, height: 4, alphaMode: .straight, fill: GIFTestFiles.red)
        var holed = PixelBuffer(width: 4, height: 4, alphaMode: .straight, fill: GIFTestFiles.blue)
        holed[1, 1] = .clear
        let frames = [opaque, holed, opaque].map { AnimationFrame(pixels: $0, duration: 0.1) }
        let source = Image(pixels: opaque, animation: InMemoryAnimation(frames: frames))
        let decoded = try coder.decode(try coder.encode(source, as: .gif, options: .init()), options: GIFTestFiles.straight)
        let animation = try #require(decoded.animation)
        #expect(try animation.frame(at: 1).pixels == holed)
        #expect(try animation.frame(at: 2).pixels == opaque)
    }

    @Test func lowQualityUsesFewerColours() throws {
        let pixels = ImageFixtures.gradient(width: 64, height: 64, alphaMode: .straight)
        let small = try coder.encode(Image(pixels: pixels), as: .gif, options: .init(quality: 0))
        let large = try coder.encode(Image(pixels: pixels), as: .gif, options: .init(quality: 0.9))
        #expect(small.count < large.count)
        // Global colour table size: 2^(flags & 7 + 1).
        #expect(2 << Int(small[10] & 7) == 16)
        #expect(2 << Int(large[10] & 7) == 256)
    }

    @Test func rejectsOtherFormatsAndEmptyImages() throws {
        let image = Image(pixels: Self.palettized(colors: 3))
        #expect(throws: WebImageError.self) { try coder.encode(image, as: .png, options: .init()) }
        let empty = Image(pixels: PixelBuffer(width: 0, height: 0, alphaMode: .straight))
        #expect(throws: WebImageError.self) { try coder.encode(empty, as: .gif, options: .init()) }
    }
}

@Suite("GIF encoding: changed-rectangle frames")
struct GIFCroppedFrameTests {
    @Test func opaqueFramesAreCroppedToWhatChanged() throws {
        let source = ImageFixtures.animation(frames: 5)
        let data = try GIFCoder().encode(source, as: .gif, options: .init())
        let container = try [UInt8](data).withUnsafeBytes { try GIFContainer(parsing: $0) }
        #expect(container.frames.count == 5)
        #expect(container.frames[0].rect == GIFRect(x: 0, y: 0, width: 32, height: 32))
        // The 8×8 square moves 8 pixels right each frame: 16×8 pixels change.
        #expect(container.frames[1].rect == GIFRect(x: 0, y: 0, width: 16, height: 8))
        #expect(container.frames[2].rect == GIFRect(x: 8, y: 0, width: 16, height: 8))
        let animation = try #require(try GIFCoder().decode(data).animation)
        for index in [4, 1, 3, 0, 2] {
            #expect(try animation.frame(at: index).pixels == ImageFixtures.movingSquare(index: index))
        }
    }

    @Test func identicalFramesBecomeOnePixel() throws {
        let pixels = GIFEncodingTests.palettized(colors: 30)
        let frames = [pixels, pixels].map { AnimationFrame(pixels: $0, duration: 0.5) }
        let data = try GIFCoder().encode(
            Image(pixels: pixels, animation: InMemoryAnimation(frames: frames)), as: .gif, options: .init())
        let container = try [UInt8](data).withUnsafeBytes { try GIFContainer(parsing: $0) }
        #expect(container.frames[1].rect == GIFRect(x: 0, y: 0, width: 1, height: 1))
        let decoded = try GIFCoder().decode(data, options: GIFTestFiles.straight)
        #expect(try #require(decoded.animation).frame(at: 1).pixels == pixels)
    }
}
