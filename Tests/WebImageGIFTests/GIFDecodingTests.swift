import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageGIF

@Suite("GIF decoding")
struct GIFDecodingTests {
    let coder = GIFCoder()

    @Test func recognisesSignatures() {
        #expect(coder.canDecode(Data("GIF87a".utf8) + Data(count: 10)))
        #expect(coder.canDecode(Data("GIF89a".utf8)))
        #expect(!coder.canDecode(Data("GIF88a".utf8)))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47])))
        #expect(coder.canEncode(.gif))
        #expect(!coder.canEncode(.png))
        #expect(coder.name == "gif")
    }

    @Test func compositesEveryDisposal() throws {
        let image = try coder.decode(try GIFTestFiles.disposals(), options: GIFTestFiles.straight)
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 5)
        #expect(image.pixels == GIFTestFiles.pixels(GIFTestFiles.disposalFrames[0], width: 4))
        for (index, expected) in GIFTestFiles.disposalFrames.enumerated() {
            #expect(try animation.frame(at: index).pixels == GIFTestFiles.pixels(expected, width: 4), "frame \(index)")
        }
        #expect(image.hasAlpha)
    }

    @Test func appliesTheTenMillisecondRule() throws {
        let animation = try #require(try coder.decode(try GIFTestFiles.disposals()).animation)
        let durations = (0..<animation.frameCount).map { animation.duration(at: $0) }
        #expect(durations == [0.1, 0.1, 0.02, 0.07, 0.1])
        #expect(try animation.frame(at: 2).duration == 0.02)
    }

    @Test(arguments: [(Int?.none, 1), (0, 0), (1, 1), (5, 5)])
    func readsTheLoopCount(stored: Int?, expected: Int) throws {
        let animation = try #require(try coder.decode(try GIFTestFiles.disposals(loopCount: stored)).animation)
        #expect(animation.loopCount == expected)
    }

    @Test func framesOutOfOrderMatchFramesInOrder() throws {
        let image = try coder.decode(try GIFTestFiles.disposals())
        let animation = try #require(image.animation)
        let inOrder = try (0..<animation.frameCount).map { try animation.frame(at: $0).pixels }
        let fresh = try #require(try coder.decode(try GIFTestFiles.disposals()).animation)
        for index in [4, 0, 3, 3, 1, 4, 2, 0] {
            #expect(try fresh.frame(at: index).pixels == inOrder[index], "frame \(index)")
        }
        #expect(throws: WebImageError.self) { try fresh.frame(at: 5) }
    }

    @Test func framesAreThreadSafe() async throws {
        let animation = try #require(try coder.decode(try GIFTestFiles.disposals()).animation)
        let expected = try (0..<animation.frameCount).map { try animation.frame(at: $0).pixels }
        let results = try await withThrowingTaskGroup(of: (Int, PixelBuffer).self) { group in
            for round in 0..<40 {
                let index = (round * 7) % expected.count
                group.addTask { (index, try animation.frame(at: index).pixels) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 40)
        for (index, pixels) in results { #expect(pixels == expected[index]) }
    }

    @Test(arguments: [1, 2, 5, 8, 9, 13, 17])
    func deinterlacesRows(height: Int) throws {
        let (data, palette) = try GIFTestFiles.interlaced(height: height)
        let image = try coder.decode(data, options: GIFTestFiles.straight)
        #expect(image.pixelSize == PixelSize(width: 3, height: height))
        for y in 0..<height {
            #expect(image.pixels[1, y] == palette[y], "row \(y)")
        }
    }

    @Test func clipsLaterFramesAndGrowsTheCanvasForFrameZero() throws {
        // Frame 0 larger than the screen: the canvas grows to contain it (browsers, Pillow).
        let grown = try coder.decode(
            try GIFTestFiles.placed(screen: (4, 4), frame: (3, 2), origin: (2, 3)), options: GIFTestFiles.straight)
        #expect(grown.pixelSize == PixelSize(width: 5, height: 5))
        #expect(grown.pixels[4, 4] == GIFTestFiles.green)
        // Outside frame 0 without transparency: palette entry 0 (red), as Pillow shows it.
        #expect(grown.pixels[0, 0] == GIFTestFiles.red)

        let transparent = try coder.decode(
            try GIFTestFiles.placed(screen: (4, 4), frame: (2, 2), origin: (1, 1), transparent: true),
            options: GIFTestFiles.straight)
        #expect(transparent.pixels[0, 0] == .clear)
        #expect(transparent.pixels[1, 1] == GIFTestFiles.green)

        // A later frame hanging over the edge is clipped.
        let data = Data(
            try GIFWriter.write { writer in
                try writer.putScreen(width: 3, height: 3, palette: GIFTestFiles.palette)
                try writer.putImage(x: 0, y: 0, width: 3, height: 3, indices: .init(repeating: 0, count: 9), palette: nil)
                try writer.putImage(x: 2, y: 1, width: 4, height: 4, indices: .init(repeating: 2, count: 16), palette: nil)
            })
        let clipped = try coder.decode(data, options: GIFTestFiles.straight)
        let animation = try #require(clipped.animation)
        #expect(animation.canvasSize == PixelSize(width: 3, height: 3))
        let second = try animation.frame(at: 1).pixels
        #expect(second[2, 2] == GIFTestFiles.blue)
        #expect(second[1, 2] == GIFTestFiles.red)
        #expect(second[2, 0] == GIFTestFiles.red)
    }

    @Test func rejectsHugeScreensBeforeAllocating() throws {
        let data = Data(
            try GIFWriter.write { writer in
                try writer.putScreen(width: 20000, height: 20000, palette: [.black, .white])
                try writer.putImage(x: 0, y: 0, width: 1, height: 1, indices: [1], palette: nil)
            })
        #expect(data.count < 100)
        let error = try #require(throws: WebImageError.self) { try coder.decode(data) }
        #expect(error.code == .tooLarge)
        var options = ImageDecodingOptions()
        options.maxPixelCount = 10
        let small = try GIFTestFiles.placed(screen: (4, 4), frame: (1, 1), origin: (0, 0))
        #expect(throws: WebImageError.self) { try coder.decode(small, options: options) }
    }

    @Test func rejectsFramesFarOutsideTheScreen() throws {
        let data = try GIFTestFiles.placed(screen: (4, 4), frame: (2, 2), origin: (0, 0))
        var bytes = [UInt8](data)
        // A second image at (65000, 65000) appended before the trailer.
        bytes.removeLast()
        bytes += [0x2C, 0xE8, 0xFD, 0xE8, 0xFD, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(bytes)) }
        #expect(error.code == .tooLarge)
    }

    @Test func rejectsGarbageWithTypedErrors() throws {
        let valid = try GIFTestFiles.disposals()
        let samples: [Data] = [
            Data(), Data("GIF89a".utf8), Data("GIF89a".utf8) + Data([4, 0, 4, 0, 0x80]),
            Data("GIF89a".utf8) + Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }),
            valid.prefix(40), Data("not a gif at all".utf8),
        ]
        for sample in samples {
            let error = try #require(throws: WebImageError.self) { try coder.decode(sample) }
            #expect(error.code == .badImageData, "\(sample.count) bytes: \(error)")
        }
    }

    @Test func keepsTheCompleteFramesOfATruncatedFile() throws {
        let valid = try GIFTestFiles.disposals()
        let full = try #require(try coder.decode(valid).animation)
        // Cutting anywhere in the last frame's data leaves the first four frames.
        let truncated = try #require(try coder.decode(valid.prefix(valid.count - 4)).animation)
        #expect(truncated.frameCount == full.frameCount - 1)
        #expect(try truncated.frame(at: 3).pixels == full.frame(at: 3).pixels)
    }

    @Test func damagedLaterFramesThrowWhenReached() throws {
        var bytes = [UInt8](try GIFTestFiles.disposals())
        // Corrupt the LZW code size of the last image (12-bit codes are the most GIF allows).
        let container = try bytes.withUnsafeBytes { try GIFContainer(parsing: $0) }
        let last = try #require(container.frames.last).descriptorOffset
        bytes[last + 10] = 11
        let image = try coder.decode(Data(bytes))
        let animation = try #require(image.animation)
        #expect(try animation.frame(at: 3).pixels.width == 4)
        #expect(throws: WebImageError.self) { try animation.frame(at: 4) }
    }

    @Test func firstFrameOnlyAndThumbnails() throws {
        let data = try GIFCoder().encode(ImageFixtures.animation(frames: 4), as: .gif, options: .init())
        let still = try coder.decode(data, options: ImageDecodingOptions(firstFrameOnly: true))
        #expect(still.animation == nil)
        #expect(still.pixelSize == PixelSize(width: 32, height: 32))

        let thumbnail = try coder.decode(data, options: ImageDecodingOptions(thumbnailPixelSize: .init(width: 16, height: 8)))
        #expect(thumbnail.pixelSize == PixelSize(width: 8, height: 8))
        #expect(thumbnail.originalPixelSize == PixelSize(width: 32, height: 32))
        let animation = try #require(thumbnail.animation)
        #expect(animation.canvasSize == PixelSize(width: 8, height: 8))
        #expect(try animation.frame(at: 3).pixels.size == PixelSize(width: 8, height: 8))

        // The scale-down limit is shared by all frames.
        let limited = try coder.decode(data, options: ImageDecodingOptions(scaleDownLimitBytes: 4 * 4 * 16 * 16))
        #expect(limited.pixelSize == PixelSize(width: 16, height: 16))
    }

    @Test func defaultsToStraightAlphaAndPremultipliesOnRequest() throws {
        let image = try coder.decode(try GIFTestFiles.disposals())
        #expect(image.pixels.alphaMode == .straight)
        #expect(image.format == .gif)
        let frame = try #require(image.animation).frame(at: 2).pixels
        #expect(frame.alphaMode == .straight)
        #expect(frame[1, 0] == .clear)

        let premultiplied = try coder.decode(try GIFTestFiles.disposals(), options: ImageDecodingOptions(alphaMode: .premultiplied))
        #expect(premultiplied.pixels.alphaMode == .premultiplied)
        #expect(try #require(premultiplied.animation).frame(at: 2).pixels == frame.premultiplied())
    }
}
