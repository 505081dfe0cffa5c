import Foundation
import Testing
import WebImage
import WebImageTesting
import WebImageWebP

@Suite struct WebPAnimationTests {
    let coder = WebPCoder()

    @Test func losslessAnimationRoundTrips() throws {
        let data = try WebPTestData.animation(frames: 4, duration: 0.1, loopCount: 3, lossless: true)
        #expect(ImageFormat.isAnimated(data))
        let image = try coder.decode(data, options: WebPTestData.straight)
        let animation = try #require(image.animation)
        #expect(image.isAnimated)
        #expect(animation.frameCount == 4)
        #expect(animation.loopCount == 3)
        #expect(animation.canvasSize == PixelSize(width: 32, height: 32))
        for index in 0..<4 {
            #expect(abs(animation.duration(at: index) - 0.1) < 0.0005)
            let frame = try animation.frame(at: index)
            #expect(frame.pixels == ImageFixtures.movingSquare(index: index).unpremultiplied())
            #expect(frame.duration == animation.duration(at: index))
        }
        #expect(image.pixels == (try animation.frame(at: 0)).pixels)
    }

    @Test func lossyAnimationIsClose() throws {
        let data = try WebPTestData.animation(frames: 3, duration: 0.25, loopCount: 0, lossless: false)
        let image = try coder.decode(data)
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 3)
        #expect(animation.loopCount == 0)
        #expect(abs(animation.totalDuration - 0.75) < 0.002)
        for index in 0..<3 {
            let frame = try animation.frame(at: index)
            #expect(frame.pixels.alphaMode == .straight)
            #expect(ImageFixtures.meanAbsoluteDifference(frame.pixels, ImageFixtures.movingSquare(index: index)) < 4)
        }
    }

    @Test func durationsFollowEachFrame() throws {
        let durations = [0.05, 0.2, 1.5]
        let frames = durations.enumerated().map {
            AnimationFrame(pixels: ImageFixtures.movingSquare(index: $0.offset), duration: $0.element)
        }
        let source = Image(pixels: frames[0].pixels, animation: InMemoryAnimation(frames: frames, loopCount: 7))
        let data = try coder.encode(source, as: .webp, options: ImageEncodingOptions(lossless: true))
        let animation = try #require(try coder.decode(data).animation)
        #expect(animation.loopCount == 7)
        #expect((0..<3).map { animation.duration(at: $0) } == durations)
    }

    @Test func premultipliedFramesMatchStraightFramesPremultiplied() throws {
        let frames = (0..<3).map { index in
            var pixels = ImageFixtures.translucentGradient(width: 24, height: 16, alphaMode: .straight)
            pixels[index * 5, index * 3] = RGBA8(r: 200, g: 10, b: 90, a: 77)
            return AnimationFrame(pixels: pixels, duration: 0.1)
        }
        let source = Image(pixels: frames[0].pixels, animation: InMemoryAnimation(frames: frames))
        let data = try coder.encode(source, as: .webp, options: ImageEncodingOptions(lossless: true))
        let straight = try #require(try coder.decode(data).animation)
        let premultiplied = try #require(
            try coder.decode(data, options: ImageDecodingOptions(alphaMode: .premultiplied)).animation)
        for index in 0..<3 {
            let expected = try straight.frame(at: index).pixels
            #expect(expected == frames[index].pixels)
            #expect(try premultiplied.frame(at: index).pixels == expected.premultiplied())
        }
    }

    @Test func randomOrderAccessEqualsSequential() throws {
        let data = try WebPTestData.animation(frames: 5, lossless: false)
        let sequentialSource = try #require(try coder.decode(data).animation)
        let sequential = try (0..<5).map { try sequentialSource.frame(at: $0).pixels }
        let randomSource = try #require(try coder.decode(data).animation)
        for index in [4, 0, 3, 3, 1, 2, 0, 4, 2] {
            #expect(try randomSource.frame(at: index).pixels == sequential[index])
        }
        // Distinct frames: the comparison above can tell frames apart.
        #expect(Set(sequential).count == 5)
    }

    @Test func concurrentAccessIsConsistent() async throws {
        let data = try WebPTestData.animation(frames: 4)
        let animation = try #require(try coder.decode(data).animation)
        let expected = try (0..<4).map { try animation.frame(at: $0).pixels }
        let results = try await withThrowingTaskGroup(of: (Int, PixelBuffer).self) { group in
            for task in 0..<16 {
                group.addTask { (task % 4, try animation.frame(at: (task * 3) % 4).pixels) }
            }
            var collected: [(Int, PixelBuffer)] = []
            for try await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == 16)
        for (task, pixels) in results { #expect(pixels == expected[(task * 3) % 4]) }
    }

    @Test func firstFrameOnlyDropsTheAnimation() throws {
        let data = try WebPTestData.animation(frames: 3)
        let image = try coder.decode(data, options: ImageDecodingOptions(firstFrameOnly: true, alphaMode: .straight))
        #expect(image.animation == nil)
        #expect(image.pixels == ImageFixtures.movingSquare(index: 0).unpremultiplied())
    }

    @Test func firstFrameOnlyEncodesAStillImage() throws {
        let animated = ImageFixtures.animation(frames: 3)
        let options = ImageEncodingOptions(lossless: true, firstFrameOnly: true)
        let data = try coder.encode(animated, as: .webp, options: options)
        #expect(!ImageFormat.isAnimated(data))
        let image = try coder.decode(data)
        #expect(image.animation == nil)
        #expect(image.pixels == animated.pixels)
    }

    @Test func thumbnailScalesEveryFrame() throws {
        let data = try WebPTestData.animation(frames: 3)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 16, height: 16))
        let image = try coder.decode(data, options: options)
        let animation = try #require(image.animation)
        #expect(image.pixelSize == PixelSize(width: 16, height: 16))
        #expect(image.originalPixelSize == PixelSize(width: 32, height: 32))
        #expect(animation.canvasSize == PixelSize(width: 16, height: 16))
        for index in 0..<3 {
            let frame = try animation.frame(at: index)
            #expect(frame.pixels.size == PixelSize(width: 16, height: 16))
            let expected = Resampler.resample(ImageFixtures.movingSquare(index: index), to: frame.pixels.size)
            #expect(frame.pixels == expected)
        }
    }

    @Test func scaleDownLimitIsSharedByAllFrames() throws {
        let data = try WebPTestData.animation(frames: 4)
        let options = ImageDecodingOptions(scaleDownLimitBytes: 32 * 32 * 4)
        let animation = try #require(try coder.decode(data, options: options).animation)
        let expected = options.targetSize(for: PixelSize(width: 32, height: 32), frameCount: 4)
        #expect(expected.pixelCount * 4 <= 32 * 32)
        #expect(animation.canvasSize == expected)
        #expect(try animation.frame(at: 3).pixels.size == expected)
    }

    @Test func outOfRangeFramesThrow() throws {
        let animation = try #require(try coder.decode(try WebPTestData.animation(frames: 2)).animation)
        #expect(throws: WebImageError.self) { try animation.frame(at: 2) }
        #expect(throws: WebImageError.self) { try animation.frame(at: -1) }
    }

    @Test func canvasOverThePixelLimitIsRefused() throws {
        let data = try WebPTestData.animation(frames: 2)
        let error = try #require(throws: WebImageError.self) {
            try coder.decode(data, options: ImageDecodingOptions(maxPixelCount: 32 * 32 - 1))
        }
        #expect(error.code == .tooLarge)
    }
}
