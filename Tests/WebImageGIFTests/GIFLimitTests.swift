import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageGIF

/// Size limits checked while the blocks are walked, the animation budget, first-frame-only work.
@Suite("GIF limits")
struct GIFLimitTests {
    @Test("A 65535×65535 logical screen is tooLarge as soon as frame 0 is met")
    func hugeCanvas() throws {
        let bomb = DecompressionBombs.gifCanvas()
        let error = try #require(throws: WebImageError.self) {
            try bomb.withUnsafeBytes { try GIFContainer(parsing: $0, limits: ImageDecodingOptions()) }
        }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("65535×65535"), "\(error.message)")
        #expect(throws: WebImageError.self) { try GIFCoder().decode(bomb) }
    }

    @Test("20,000 frames of 500×500 are over the default animation budget, refused while counting")
    func manyFramesRefused() throws {
        let bomb = DecompressionBombs.manyFrameGIF()
        #expect(bomb.count > 450_000 && bomb.count < 470_000)
        let error = try #require(throws: WebImageError.self) { try GIFCoder().decode(bomb) }
        #expect(error.code == .tooLarge)
        // 1_000_000_000 / 250_000 = 4000 frames fit; the walk stops at the next one.
        #expect(error.message.contains("more than 4000 frames of 500×500"), "\(error.message)")
    }

    @Test("The budget is configurable")
    func configurableBudget() throws {
        let gif = DecompressionBombs.manyFrameGIF(frames: 100, width: 100, height: 100)
        var options = ImageDecodingOptions()
        options.maxAnimationPixelCount = 250_000
        let error = try #require(throws: WebImageError.self) { try GIFCoder().decode(gif, options: options) }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("more than 25 frames"), "\(error.message)")
        let image = try GIFCoder().decode(gif)
        #expect(image.animation?.frameCount == 100)
    }

    @Test("First-frame-only decoding stops the walk after frame 0 of 20,000")
    func firstFrameStopsEarly() throws {
        let bomb = DecompressionBombs.manyFrameGIF()
        var options = ImageDecodingOptions()
        options.firstFrameOnly = true
        let container = try bomb.withUnsafeBytes { try GIFContainer(parsing: $0, limits: options) }
        #expect(container.frames.count == 1)
        // Header, palette, NETSCAPE extension, one control block and frame 0, and the next introducer.
        #expect(container.scannedLength < 100, "walked \(container.scannedLength) of \(bomb.count) bytes")

        let image = try GIFCoder().decode(bomb, options: options)
        #expect(image.animation == nil)
        #expect(image.pixelSize == PixelSize(width: 500, height: 500))
    }

    @Test("First-frame-only decoding ignores a huge rectangle declared by a later frame")
    func firstFrameIgnoresLaterHugeFrames() throws {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func frame(width: Int, height: Int) -> [UInt8] {
            [0x2C] + le16(0) + le16(0) + le16(width) + le16(height) + [0x00] + [2, 2, 0x44, 0x01, 0]
        }
        var bytes = Array("GIF89a".utf8) + le16(10) + le16(10) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        bytes += frame(width: 1, height: 1) + frame(width: 65_535, height: 65_535) + [0x3B]
        let gif = Data(bytes)
        var options = ImageDecodingOptions()
        options.firstFrameOnly = true
        let image = try GIFCoder().decode(gif, options: options)
        #expect(image.pixelSize == PixelSize(width: 10, height: 10))
        let error = try #require(throws: WebImageError.self) { try GIFCoder().decode(gif) }
        #expect(error.code == .tooLarge)
    }

    @Test("The header probe counts every frame and agrees with the decoder")
    func headerProbe() throws {
        let header = try GIFCoder().readHeader(DecompressionBombs.manyFrameGIF())
        #expect(header.frameCount == 20_000)
        #expect(header.pixelSize == PixelSize(width: 500, height: 500))
        #expect(header.loopCount == 0)
        #expect(header.frameDurations?.first == 0.1)

        let small = try GIFTestFiles.disposals(loopCount: 3)
        let image = try GIFCoder().decode(small)
        let probed = try GIFCoder().readHeader(small)
        #expect(probed.frameCount == image.animation?.frameCount)
        #expect(probed.loopCount == image.animation?.loopCount)
        #expect(probed.hasAlpha == image.hasAlpha)
        #expect(probed.pixelSize == image.originalPixelSize)
    }
}
