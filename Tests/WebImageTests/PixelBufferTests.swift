import Testing
import WebImage
import WebImageTesting

@Suite("Pixel buffers, alpha and orientation")
struct PixelBufferTests {
    @Test("Premultiplying then unpremultiplying is exact for opaque and transparent pixels, and within rounding otherwise")
    func premultiplyRoundTrip() {
        var straight = PixelBuffer(width: 256, height: 256, alphaMode: .straight)
        for a in 0..<256 {
            for c in 0..<256 { straight[c, a] = RGBA8(r: UInt8(c), g: UInt8(255 - c), b: 128, a: UInt8(a)) }
        }
        let premultiplied = straight.premultiplied()
        #expect(premultiplied.alphaMode == .premultiplied)
        #expect(premultiplied[200, 255] == RGBA8(r: 200, g: 55, b: 128, a: 255))
        #expect(premultiplied[200, 0] == RGBA8(r: 0, g: 0, b: 0, a: 0))
        #expect(premultiplied[255, 128] == RGBA8(r: 128, g: 0, b: 64, a: 128))
        let back = premultiplied.unpremultiplied()
        for a in stride(from: 1, to: 256, by: 1) {
            for c in stride(from: 0, to: 256, by: 17) {
                let error = abs(Int(back[c, a].r) - c)
                // Quantisation to `a` levels loses up to 255 / (2a) per channel.
                #expect(error <= 255 / (2 * a) + 1, "a=\(a) c=\(c) got \(back[c, a].r)")
            }
        }
        #expect(straight.premultiplied().premultiplied() == premultiplied)
    }

    @Test("Flattening composites over the background colour")
    func flatten() {
        var pixels = PixelBuffer(width: 2, height: 1, alphaMode: .straight)
        pixels[0, 0] = RGBA8(r: 0, g: 0, b: 0, a: 0)
        pixels[1, 0] = RGBA8(r: 255, g: 0, b: 0, a: 128)
        let flat = pixels.flattened(over: .white)
        #expect(flat[0, 0] == RGBA8.white)
        #expect(flat[1, 0] == RGBA8(r: 255, g: 127, b: 127))
        #expect(flat.isOpaque)
    }

    @Test("Flattening opaque pixels gives the same bytes, straight, whatever the background", arguments: [AlphaMode.straight, .premultiplied])
    func flattenOpaque(mode: AlphaMode) {
        var pixels = PixelBuffer(width: 3, height: 1, alphaMode: mode)
        for x in 0..<3 { pixels[x, 0] = RGBA8(r: UInt8(x * 90), g: 7, b: 200) }
        let flat = pixels.flattened(over: RGBA8(r: 9, g: 250, b: 3))
        #expect(flat.bytes == pixels.bytes)
        #expect(flat.alphaMode == .straight)
        // One translucent pixel: composited as before.
        pixels[2, 0] = RGBA8(r: 255, g: 0, b: 0, a: 128)
        #expect(pixels.flattened(over: .white).bytes != pixels.bytes)
    }

    @Test("All eight EXIF orientations put the stored top-left pixel where they should", arguments: ImageOrientation.allCases)
    func orientations(orientation: ImageOrientation) {
        // A 3×2 image with distinct pixels; marker at stored (0, 0).
        var pixels = PixelBuffer(width: 3, height: 2, alphaMode: .straight)
        for y in 0..<2 { for x in 0..<3 { pixels[x, y] = RGBA8(r: UInt8(x), g: UInt8(y), b: 0) } }
        let shown = pixels.oriented(orientation)
        #expect(shown.size == (orientation.swapsDimensions ? PixelSize(width: 2, height: 3) : PixelSize(width: 3, height: 2)))
        // Where the stored origin appears once displayed (EXIF definitions).
        let expectedOrigin: (Int, Int) = switch orientation {
        case .up: (0, 0)
        case .upMirrored: (2, 0)
        case .down: (2, 1)
        case .downMirrored: (0, 1)
        case .leftMirrored: (0, 0)
        case .right: (1, 0)
        case .rightMirrored: (1, 2)
        case .left: (0, 2)
        }
        #expect(shown[expectedOrigin.0, expectedOrigin.1] == RGBA8(r: 0, g: 0, b: 0))
        // Orienting never loses pixels.
        #expect(shown.bytes.sorted() == pixels.bytes.sorted())
    }

    @Test("Memory cost counts the poster and every frame an in-memory animation holds")
    func memoryCost() {
        let still = Image(pixels: ImageFixtures.gradient(width: 10, height: 10))
        #expect(still.memoryCost == 400)
        let animated = ImageFixtures.animation(frames: 5)
        #expect(animated.memoryCost == 32 * 32 * 4 * 6)
        #expect(animated.isAnimated)
        #expect(abs((animated.animation?.totalDuration ?? 0) - 0.5) < 1e-9)
    }

    @Test("Point size divides by scale and swaps for rotated orientations")
    func pointSize() {
        let image = Image(pixels: ImageFixtures.gradient(width: 40, height: 20), scale: 2, orientation: .right)
        #expect(image.size.width == 10)
        #expect(image.size.height == 20)
    }

    @Test("isOpaque finds one translucent pixel anywhere, and opaque conversions only relabel")
    func opaqueness() {
        for (width, height) in [(1, 1), (3, 1), (1, 3), (33, 65), (257, 9)] {
            let opaque = PixelBuffer(width: width, height: height, alphaMode: .straight, fill: RGBA8(r: 9, g: 8, b: 7))
            #expect(opaque.isOpaque)
            for (x, y) in [(0, 0), (width - 1, height - 1), (width / 2, height / 2), (width - 1, 0)] {
                var one = opaque
                one[x, y] = RGBA8(r: 9, g: 8, b: 7, a: 254)
                #expect(!one.isOpaque, "\(width)×\(height) at \(x),\(y)")
                // A translucent pixel still converts; the opaque ones keep their bytes.
                let premultiplied = one.premultiplied()
                #expect(premultiplied.alphaMode == .premultiplied)
                #expect(premultiplied[x, y] == RGBA8(r: 9, g: 8, b: 7, a: 254))
            }
            let relabelled = opaque.premultiplied()
            #expect(relabelled.alphaMode == .premultiplied && relabelled.bytes == opaque.bytes)
            let back = relabelled.unpremultiplied()
            #expect(back.alphaMode == .straight && back.bytes == opaque.bytes)
        }
        #expect(PixelBuffer(width: 0, height: 0, alphaMode: .straight).isOpaque)
    }
}
