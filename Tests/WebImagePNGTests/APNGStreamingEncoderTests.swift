import Foundation
import Synchronization
import Testing
import WebImage
import WebImagePNG
import WebImageTesting

/// The APNG encoder asks for each frame in order and, unless it must restart as RGBA, only once.
@Suite("APNG encoder streams its frames")
struct APNGStreamingEncoderTests {
    /// Frames made on demand, counting how often each is asked for; frame `translucentFrom` and
    /// later ones have alpha.
    final class CountingFrames: AnimatedImageSource {
        let frameCount: Int
        let translucentFrom: Int
        let requests = Mutex<[Int]>([])

        init(frameCount: Int, translucentFrom: Int) {
            self.frameCount = frameCount
            self.translucentFrom = translucentFrom
        }

        var loopCount: Int { 0 }
        var canvasSize: PixelSize { PixelSize(width: 32, height: 32) }
        func duration(at index: Int) -> Double { 0.05 }
        func frame(at index: Int) throws -> AnimationFrame {
            requests.withLock { $0.append(index) }
            var pixels = ImageFixtures.movingSquare(index: index)
            if index >= translucentFrom { pixels[31, 31] = RGBA8(r: 1, g: 2, b: 3, a: 100) }
            return AnimationFrame(pixels: pixels, duration: 0.05)
        }

        func expected(_ index: Int) -> PixelBuffer {
            var pixels = ImageFixtures.movingSquare(index: index)
            if index >= translucentFrom { pixels[31, 31] = RGBA8(r: 1, g: 2, b: 3, a: 100) }
            return pixels
        }
    }

    /// IHDR's colour type byte (2 = RGB, 6 = RGBA).
    static func colorType(_ data: Data) -> UInt8 { data[8 + 8 + 9] }

    @Test(arguments: [(6, 6, [0, 1, 2, 3, 4, 5], 2), (6, 0, [0, 1, 2, 3, 4, 5], 6), (6, 3, [0, 1, 2, 3, 0, 1, 2, 3, 4, 5], 6)])
    func framesAreAskedForInOrder(count: Int, translucentFrom: Int, requests: [Int], colorType: UInt8) throws {
        let source = CountingFrames(frameCount: count, translucentFrom: translucentFrom)
        let first = try source.frame(at: 0).pixels
        source.requests.withLock { $0 = [] }
        let data = try PNGCoder().encode(Image(pixels: first, animation: source), as: .apng, options: .init())
        #expect(source.requests.withLock { $0 } == requests)
        #expect(Self.colorType(data) == colorType)
        let animation = try #require(try PNGCoder().decode(data, options: ImageDecodingOptions(alphaMode: .straight)).animation)
        #expect(animation.frameCount == count)
        for index in 0..<count { #expect(try animation.frame(at: index).pixels == source.expected(index)) }
    }
}
