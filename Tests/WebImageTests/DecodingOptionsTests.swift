import Testing
import WebImage

@Suite("Decode sizing: thumbnails, scale-down and the pixel limit")
struct DecodingOptionsTests {
    @Test("A thumbnail with preserved aspect ratio fits inside the box and never scales up")
    func thumbnailFit() {
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 256, height: 256)
        #expect(options.targetSize(for: PixelSize(width: 6000, height: 4000)) == PixelSize(width: 256, height: 171))
        #expect(options.targetSize(for: PixelSize(width: 4000, height: 6000)) == PixelSize(width: 171, height: 256))
        #expect(options.targetSize(for: PixelSize(width: 100, height: 50)) == PixelSize(width: 100, height: 50))
        options.preserveAspectRatio = false
        #expect(options.targetSize(for: PixelSize(width: 6000, height: 4000)) == PixelSize(width: 256, height: 256))
    }

    @Test("The thumbnail box is in the displayed orientation: swapped for orientations 5–8", arguments: ImageOrientation.allCases)
    func thumbnailOrientation(orientation: ImageOrientation) {
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 320, height: 1000)
        let stored = options.targetSize(for: PixelSize(width: 4000, height: 3000), orientation: orientation)
        // A portrait photo stored landscape (orientation 6) displays at most 320 wide.
        let displayed = orientation.swapsDimensions ? PixelSize(width: stored.height, height: stored.width) : stored
        #expect(displayed.width == 320)
        #expect(displayed.height == (orientation.swapsDimensions ? 427 : 240))
        options.preserveAspectRatio = false
        let stretched = options.targetSize(for: PixelSize(width: 4000, height: 3000), orientation: orientation)
        #expect(stretched == (orientation.swapsDimensions ? PixelSize(width: 1000, height: 320) : PixelSize(width: 320, height: 1000)))
    }

    @Test("Thumbnail boxes beyond Int's range never trap")
    func hugeThumbnail() {
        var options = ImageDecodingOptions()
        for box in [PixelSize(width: .max, height: 1), PixelSize(width: 1, height: .max), PixelSize(width: .max, height: .max)] {
            options.thumbnailPixelSize = box
            let size = options.targetSize(for: PixelSize(width: 300, height: 200))
            #expect(size.width <= 300 && size.height <= 200 && size.width >= 1 && size.height >= 1)
        }
    }

    @Test("The scale-down limit bounds decoded bytes, shared across animation frames")
    func scaleDown() {
        var options = ImageDecodingOptions()
        options.scaleDownLimitBytes = ImageDecodingOptions.defaultScaleDownLimitBytes
        let big = options.targetSize(for: PixelSize(width: 10000, height: 10000))
        #expect(big.rgbaByteCount <= 60 * 1024 * 1024)
        #expect(big.rgbaByteCount > 55 * 1024 * 1024)
        #expect(abs(Double(big.width) / Double(big.height) - 1) < 0.01)
        #expect(options.targetSize(for: PixelSize(width: 1000, height: 1000)) == PixelSize(width: 1000, height: 1000))
        let perFrame = options.targetSize(for: PixelSize(width: 2000, height: 2000), frameCount: 10)
        #expect(perFrame.rgbaByteCount * 10 <= 60 * 1024 * 1024)
        #expect(perFrame.width < 2000)
    }

    @Test("The pixel limit refuses oversized and empty headers with typed errors")
    func pixelLimit() throws {
        let options = ImageDecodingOptions()
        try options.checkPixelLimit(PixelSize(width: 10000, height: 10000))
        let tooLarge = #expect(throws: WebImageError.self) {
            try options.checkPixelLimit(PixelSize(width: 20000, height: 20000))
        }
        #expect(tooLarge?.code == .tooLarge)
        let empty = #expect(throws: WebImageError.self) { try options.checkPixelLimit(PixelSize(width: 0, height: 5)) }
        #expect(empty?.code == .badImageData)
        #expect(PixelSize(width: .max, height: 2).pixelCount == .max)
    }
}
