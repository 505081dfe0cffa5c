import Foundation
import Testing
import WebImage
import WebImagePNG
import WebImageTesting

/// APNG decoding (compositing, fallback, on-demand frames) and encoding.
@Suite struct APNGTests {
    let straight = ImageDecodingOptions(alphaMode: .straight)
    let red = [255, 0, 0, 255]

    /// A 4×4 APNG whose IDAT is frame 0, exercising every dispose and blend operation.
    func compositingFile(sequenceOverride: [Int: Int] = [:]) -> Data {
        func seq(_ n: Int) -> Int { sequenceOverride[n] ?? n }
        return TestPNG.file([
            TestPNG.ihdr(width: 4, height: 4),
            TestPNG.acTL(frames: 4, plays: 2),
            TestPNG.fcTL(seq(0), width: 4, height: 4, delay: (1, 10)),
            TestPNG.chunk("IDAT", TestPNG.solid(width: 4, height: 4, red)),
            // Frame 1: half-transparent blue over the centre, then cleared to background.
            TestPNG.fcTL(seq(1), width: 2, height: 2, x: 1, y: 1, delay: (20, 100), dispose: 1, blend: 1),
            TestPNG.fdAT(seq(2), TestPNG.solid(width: 2, height: 2, [0, 0, 255, 128])),
            // Frame 2: green corner, then restored to the previous canvas.
            TestPNG.fcTL(seq(3), width: 1, height: 1, delay: (3, 0), dispose: 2, blend: 0),
            TestPNG.fdAT(seq(4), TestPNG.solid(width: 1, height: 1, [0, 255, 0, 255])),
            // Frame 3: half-transparent green over a cleared pixel.
            TestPNG.fcTL(seq(5), width: 1, height: 1, x: 2, y: 2, delay: (1, 1), blend: 1),
            TestPNG.fdAT(seq(6), TestPNG.solid(width: 1, height: 1, [0, 255, 0, 128])),
            TestPNG.chunk("IEND", []),
        ])
    }

    @Test func disposeAndBlendCompositing() throws {
        let image = try PNGCoder().decode(compositingFile(), options: straight)
        let animation = try #require(image.animation)
        #expect(image.format == .apng)
        #expect(animation.frameCount == 4)
        #expect(animation.loopCount == 2)
        #expect(animation.canvasSize == PixelSize(width: 4, height: 4))
        #expect([0, 1, 2, 3].map { animation.duration(at: $0) } == [0.1, 0.2, 0.03, 1])

        let f0 = try animation.frame(at: 0).pixels
        #expect(f0 == image.pixels)
        #expect(f0[1, 1] == RGBA8(r: 255, g: 0, b: 0))

        let f1 = try animation.frame(at: 1).pixels
        #expect(f1[0, 0] == RGBA8(r: 255, g: 0, b: 0))
        let blended = f1[1, 1]
        #expect(abs(Int(blended.r) - 127) <= 1 && blended.g == 0 && abs(Int(blended.b) - 128) <= 1 && blended.a == 255)
        #expect(f1[2, 2] == blended && f1[3, 3] == RGBA8(r: 255, g: 0, b: 0))

        let f2 = try animation.frame(at: 2).pixels
        #expect(f2[0, 0] == RGBA8(r: 0, g: 255, b: 0))
        #expect(f2[1, 1] == .clear && f2[2, 2] == .clear)
        #expect(f2[3, 3] == RGBA8(r: 255, g: 0, b: 0))

        let f3 = try animation.frame(at: 3).pixels
        #expect(f3[0, 0] == RGBA8(r: 255, g: 0, b: 0))
        #expect(f3[1, 1] == .clear)
        #expect(f3[2, 2] == RGBA8(r: 0, g: 255, b: 0, a: 128))

        // Backwards and random access give the same canvases as playing forwards.
        #expect(try animation.frame(at: 1).pixels == f1)
        #expect(try animation.frame(at: 3).pixels == f3)
        #expect(try animation.frame(at: 2).pixels == f2)
        #expect(throws: WebImageError.self) { try animation.frame(at: 4) }
    }

    @Test func framesFollowTheRequestedAlphaMode() throws {
        let image = try PNGCoder().decode(compositingFile(), options: ImageDecodingOptions(alphaMode: .premultiplied))
        let frame = try #require(image.animation).frame(at: 3).pixels
        #expect(frame.alphaMode == .premultiplied)
        #expect(frame[2, 2] == RGBA8(r: 0, g: 255, b: 0, a: 128).premultipliedForTest)

        // By default frames keep the straight alpha the APNG stores.
        let straightFrame = try #require(try PNGCoder().decode(compositingFile()).animation).frame(at: 3).pixels
        #expect(straightFrame.alphaMode == .straight)
        #expect(straightFrame[2, 2] == RGBA8(r: 0, g: 255, b: 0, a: 128))
    }

    @Test func brokenSequenceNumbersFallBackToTheStaticImage() throws {
        for override in [[2: 5], [0: 1], [4: 3], [6: 6 + 1]] {
            let image = try PNGCoder().decode(compositingFile(sequenceOverride: override), options: straight)
            #expect(image.animation == nil, "override \(override)")
            #expect(image.pixels[1, 1] == RGBA8(r: 255, g: 0, b: 0))
        }
    }

    @Test func frameOutsideTheCanvasFallsBack() throws {
        let data = TestPNG.file([
            TestPNG.ihdr(width: 4, height: 4), TestPNG.acTL(frames: 2, plays: 0),
            TestPNG.fcTL(0, width: 4, height: 4), TestPNG.chunk("IDAT", TestPNG.solid(width: 4, height: 4, red)),
            TestPNG.fcTL(1, width: 2, height: 2, x: 3, y: 0), TestPNG.fdAT(2, TestPNG.solid(width: 2, height: 2, red)),
            TestPNG.chunk("IEND", []),
        ])
        let image = try PNGCoder().decode(data)
        #expect(image.animation == nil)
        #expect(image.pixelSize == PixelSize(width: 4, height: 4))
    }

    @Test func missingFrameDataFallsBack() throws {
        let data = TestPNG.file([
            TestPNG.ihdr(width: 4, height: 4), TestPNG.acTL(frames: 2, plays: 0),
            TestPNG.fcTL(0, width: 4, height: 4), TestPNG.chunk("IDAT", TestPNG.solid(width: 4, height: 4, red)),
            TestPNG.fcTL(1, width: 4, height: 4), TestPNG.chunk("IEND", []),
        ])
        #expect(try PNGCoder().decode(data).animation == nil)
    }

    @Test func fewerFramesThanDeclaredIsBadImageData() {
        let data = TestPNG.file([
            TestPNG.ihdr(width: 4, height: 4), TestPNG.acTL(frames: 3, plays: 0),
            TestPNG.fcTL(0, width: 4, height: 4), TestPNG.chunk("IDAT", TestPNG.solid(width: 4, height: 4, red)),
            TestPNG.chunk("IEND", []),
        ])
        let error = #expect(throws: WebImageError.self) { try PNGCoder().decode(data) }
        #expect(error?.code == .badImageData)
    }

    /// A default image that is not part of the animation, and dispose PREVIOUS on the first frame.
    @Test func separateDefaultImageAndPreviousOnFirstFrame() throws {
        let yellow = [255, 255, 0, 255]
        let data = TestPNG.file([
            TestPNG.ihdr(width: 4, height: 4), TestPNG.acTL(frames: 2, plays: 0),
            TestPNG.chunk("IDAT", TestPNG.solid(width: 4, height: 4, yellow)),
            TestPNG.fcTL(0, width: 2, height: 2, dispose: 2), TestPNG.fdAT(1, TestPNG.solid(width: 2, height: 2, red)),
            TestPNG.fcTL(2, width: 1, height: 1, x: 3, y: 3, blend: 1),
            TestPNG.fdAT(3, TestPNG.solid(width: 1, height: 1, [0, 0, 255, 255])),
            TestPNG.chunk("IEND", []),
        ])
        let image = try PNGCoder().decode(data, options: straight)
        #expect(image.pixels[0, 0] == RGBA8(r: 255, g: 255, b: 0))
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 2)
        let f0 = try animation.frame(at: 0).pixels
        #expect(f0[0, 0] == RGBA8(r: 255, g: 0, b: 0) && f0[3, 3] == .clear)
        let f1 = try animation.frame(at: 1).pixels
        #expect(f1[0, 0] == .clear && f1[3, 3] == RGBA8(r: 0, g: 0, b: 255))
    }

    @Test func firstFrameOnlyHasNoAnimation() throws {
        var options = ImageDecodingOptions()
        options.firstFrameOnly = true
        let image = try PNGCoder().decode(compositingFile(), options: options)
        #expect(image.animation == nil)
        #expect(image.pixelSize == PixelSize(width: 4, height: 4))
    }

    @Test func encodeDecodeRoundTrip() throws {
        let source = ImageFixtures.animation(frames: 5, duration: 0.07, loopCount: 3)
        let data = try PNGCoder().encode(source, as: .png, options: ImageEncodingOptions())
        #expect(ImageFormat.detect(in: data) == .apng)
        #expect(ImageFormat.isAnimated(data))
        let types = TestPNG.chunkTypes(data)
        #expect(types.prefix(4) == ["IHDR", "acTL", "fcTL", "IDAT"])
        #expect(types.filter { $0 == "fcTL" }.count == 5)

        let image = try PNGCoder().decode(data)
        let animation = try #require(image.animation)
        let original = try #require(source.animation)
        #expect(animation.frameCount == 5)
        #expect(animation.loopCount == 3)
        for index in 0..<5 {
            #expect(animation.duration(at: index) == 0.07)
            #expect(try animation.frame(at: index).pixels == original.frame(at: index).pixels)
        }
        #expect(try image.pixels == original.frame(at: 0).pixels)
    }

    @Test func translucentAnimationAndLongDurations() throws {
        let frames = [0.5, 90, 1000].enumerated().map { index, duration in
            var pixels = ImageFixtures.translucentGradient(width: 6, height: 5, alphaMode: .straight)
            pixels[index, 0] = RGBA8(r: 9, g: 9, b: 9, a: 77)
            return AnimationFrame(pixels: pixels, duration: duration)
        }
        let source = Image(pixels: frames[0].pixels, animation: InMemoryAnimation(frames: frames, loopCount: 0))
        let data = try PNGCoder().encode(source, as: .apng, options: ImageEncodingOptions())
        let animation = try #require(try PNGCoder().decode(data, options: straight).animation)
        #expect(animation.loopCount == 0)
        #expect((0..<3).map { animation.duration(at: $0) } == [0.5, 90, 1000])
        for index in 0..<3 { #expect(try animation.frame(at: index).pixels == frames[index].pixels) }
    }

    @Test func firstFrameOnlyEncodesAStillPNG() throws {
        let source = ImageFixtures.animation(frames: 3)
        let data = try PNGCoder().encode(source, as: .png, options: ImageEncodingOptions(firstFrameOnly: true))
        #expect(ImageFormat.detect(in: data) == .png)
        #expect(try PNGCoder().decode(data).animation == nil)
    }

    @Test func thumbnailAppliesToEveryFrame() throws {
        let source = ImageFixtures.animation(frames: 3)
        let data = try PNGCoder().encode(source, as: .png, options: ImageEncodingOptions())
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 16, height: 16)
        let image = try PNGCoder().decode(data, options: options)
        let animation = try #require(image.animation)
        #expect(image.pixelSize == PixelSize(width: 16, height: 16))
        #expect(animation.canvasSize == PixelSize(width: 16, height: 16))
        for index in 0..<3 { #expect(try animation.frame(at: index).pixels.size == PixelSize(width: 16, height: 16)) }
        #expect(image.originalPixelSize == PixelSize(width: 32, height: 32))
    }

    @Test func scaleDownLimitIsSharedByAllFrames() throws {
        let data = try PNGCoder().encode(ImageFixtures.animation(frames: 4), as: .png, options: ImageEncodingOptions())
        var options = ImageDecodingOptions()
        options.scaleDownLimitBytes = 4 * (16 * 16 * 4)  // room for four 16×16 frames
        let image = try PNGCoder().decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 16, height: 16))
        #expect(try #require(image.animation).frame(at: 3).pixels.size == PixelSize(width: 16, height: 16))
    }

    @Test func framesCanBeReadFromManyTasks() async throws {
        let data = try PNGCoder().encode(ImageFixtures.animation(frames: 6), as: .png, options: ImageEncodingOptions())
        let animation = try #require(try PNGCoder().decode(data).animation)
        let expected = try (0..<6).map { try animation.frame(at: $0).pixels }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<12 {
                group.addTask {
                    for step in 0..<6 {
                        let index = (task + step * 5) % 6
                        if try animation.frame(at: index).pixels != expected[index] { return false }
                    }
                    return true
                }
            }
            for try await matched in group { #expect(matched) }
        }
    }
}

