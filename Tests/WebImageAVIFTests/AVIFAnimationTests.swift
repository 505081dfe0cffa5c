import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageAVIF

@Suite struct AVIFAnimationTests {
    let coder = AVIFCoder()

    @Test func losslessSequenceRoundTripsEveryFrameAndDuration() throws {
        let data = try AVIFTestData.animation(frames: 5, duration: 0.12, lossless: true)
        let image = try coder.decode(data)
        let animation = try #require(image.animation)
        #expect(image.isAnimated)
        #expect(animation.frameCount == 5)
        #expect(animation.loopCount == 0)
        #expect(animation.canvasSize == PixelSize(width: 32, height: 32))
        for index in 0..<5 {
            #expect(abs(animation.duration(at: index) - 0.12) < 0.0005)
            let frame = try animation.frame(at: index)
            #expect(frame.pixels == ImageFixtures.movingSquare(index: index), "frame \(index)")
            #expect(frame.duration == animation.duration(at: index))
        }
        #expect(image.pixels == ImageFixtures.movingSquare(index: 0))
    }

    @Test func framesInAnyOrderMatchSequentialOnes() throws {
        let data = try AVIFTestData.animation(frames: 6)
        let sequential = try #require(try coder.decode(data).animation)
        let expected = try (0..<6).map { try sequential.frame(at: $0).pixels }
        let random = try #require(try coder.decode(data).animation)
        for index in [4, 1, 5, 5, 0, 3, 2] {
            #expect(try random.frame(at: index).pixels == expected[index], "frame \(index)")
        }
        #expect(throws: WebImageError.self) { try random.frame(at: 6) }
    }

    /// A cursor, not a replay: frame n+1 after frame n costs one AV1 frame.
    @Test func sequentialAccessDecodesEachFrameOnce() throws {
        let data = try AVIFTestData.animation(frames: 6)
        let source = try #require(try coder.decode(data).animation as? AVIFAnimatedSource)
        #expect(source.decodedFrameCount == 1)  // the poster
        for index in 1..<6 { _ = try source.frame(at: index) }
        #expect(source.decodedFrameCount == 6)
        _ = try source.frame(at: 5)  // the frame at hand: no decode
        #expect(source.decodedFrameCount == 6)
    }

    @Test func headerCountsFramesWithoutDecoding() throws {
        let data = try AVIFTestData.animation(frames: 3, duration: 0.25)
        let header = try coder.readHeader(data)
        #expect(header.frameCount == 3)
        #expect(header.loopCount == 0)
        #expect(header.frameDurations?.count == 3)
        #expect(header.frameDurations?.allSatisfy { abs($0 - 0.25) < 0.0005 } == true)
        #expect(header.pixelSize == PixelSize(width: 32, height: 32))
    }

    @Test func firstFrameOnlyAndThumbnails() throws {
        let data = try AVIFTestData.animation(frames: 3)
        let first = try coder.decode(data, options: ImageDecodingOptions(firstFrameOnly: true))
        #expect(first.animation == nil)
        #expect(first.pixelSize == PixelSize(width: 32, height: 32))
        let small = try coder.decode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 16, height: 16)))
        let animation = try #require(small.animation)
        #expect(animation.canvasSize == PixelSize(width: 16, height: 16))
        #expect(try animation.frame(at: 2).pixels.size == PixelSize(width: 16, height: 16))
        #expect(small.pixelSize == PixelSize(width: 16, height: 16))
    }

    @Test func animationBudgetIsCheckedBeforeDecodingFrames() throws {
        let data = try AVIFTestData.animation(frames: 4)
        var options = ImageDecodingOptions()
        options.maxAnimationPixelCount = 3 * 32 * 32
        let error = try #require(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(error.code == .tooLarge)
        options.maxAnimationPixelCount = 4 * 32 * 32
        #expect(try coder.decode(data, options: options).animation?.frameCount == 4)
    }

    /// Past 512 frames the durations are the sequence's average (libavif's per-frame timing is
    /// quadratic); constant-rate sequences keep their exact value.
    @Test func longSequenceReportsItsAverageDuration() throws {
        let frames = (0..<520).map { index in
            let colour = RGBA8(r: UInt8(index % 256), g: 0, b: 0)
            return AnimationFrame(pixels: PixelBuffer(width: 8, height: 8, alphaMode: .straight, fill: colour), duration: 0.04)
        }
        let image = Image(pixels: frames[0].pixels, animation: InMemoryAnimation(frames: frames, loopCount: 0))
        let data = try coder.encode(image, as: .avif, options: ImageEncodingOptions(quality: 0.5, speed: 10))
        let header = try coder.readHeader(data)
        #expect(header.frameCount == 520)
        #expect(header.frameDurations?.allSatisfy { abs($0 - 0.04) < 0.0005 } == true)
        let decoded = try #require(try coder.decode(data).animation)
        #expect(abs(decoded.duration(at: 519) - 0.04) < 0.0005)
    }

    /// One duration rule for every animated format: a stored delay of 10 ms or less plays as
    /// 100 ms; the stored value stays readable and is what the encoder writes.
    @Test func shortDelaysPlayAs100msAndKeepTheirStoredValue() throws {
        let frames = (0..<3).map { AnimationFrame(pixels: ImageFixtures.movingSquare(index: $0), duration: 0.1) }
        let stored = [0.0, 0.01, 0.05]
        let image = Image(
            pixels: frames[0].pixels, animation: InMemoryAnimation(frames: frames, loopCount: 0, storedDurations: stored))
        let data = try coder.encode(image, as: .avif, options: ImageEncodingOptions(speed: 10))
        let animation = try #require(try coder.decode(data).animation)
        #expect((0..<3).map { animation.duration(at: $0) } == [0.1, 0.1, 0.05])
        #expect(abs(animation.storedDuration(at: 0) - 0.001) < 1e-9)  // 0 ms is written as 1 ms
        #expect(abs(animation.storedDuration(at: 1) - 0.01) < 1e-9)
        let header = try coder.readHeader(data)
        #expect(header.frameDurations == [0.1, 0.1, 0.05])
        #expect(header.storedFrameDurations?[1] == animation.storedDuration(at: 1))
    }

    @Test func firstFrameOnlyEncodingWritesAStillImage() throws {
        let data = try coder.encode(
            ImageFixtures.animation(frames: 3), as: .avif,
            options: ImageEncodingOptions(lossless: true, firstFrameOnly: true, speed: 10))
        let image = try coder.decode(data)
        #expect(image.animation == nil)
        #expect(image.pixels == ImageFixtures.movingSquare(index: 0))
    }
}
