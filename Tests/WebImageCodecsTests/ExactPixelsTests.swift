import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// Lossless round trips with default decoding options keep every straight RGBA byte: decoders
/// keep the alpha the format stores, and only the stages that need premultiplied pixels
/// (resampling) convert, internally.
@Suite("Exact pixels: straight alpha by default")
struct ExactPixelsTests {
    let coders = ImageCodersManager.standard()

    /// Every 8-bit colour value under every alpha value (256 × 256 pixels): each pixel whose
    /// colour a premultiplied round trip would change is here.
    static let everyColourUnderEveryAlpha = PixelBuffer(width: 256, height: 256, alphaMode: .straight) { out in
        for alpha in 0..<256 {
            for value in 0..<256 {
                let i = (alpha * 256 + value) * 4
                out[i] = UInt8(value)
                out[i + 1] = UInt8(255 - value)
                out[i + 2] = UInt8((value * 7) & 0xFF)
                out[i + 3] = UInt8(alpha)
            }
        }
    }

    @Test("PNG → decode → PNG → decode is bit-exact, and decoding defaults to straight alpha")
    func pngToPNG() throws {
        let source = Self.everyColourUnderEveryAlpha
        let png = try coders.encode(Image(pixels: source), as: .png, options: ImageEncodingOptions())
        let decoded = try coders.decode(png)
        #expect(decoded.pixels.alphaMode == .straight)
        #expect(decoded.pixels == source)

        let again = try coders.decode(try coders.encode(decoded, as: .png, options: ImageEncodingOptions()))
        #expect(again.pixels == source)
    }

    @Test("PNG → lossless WebP → PNG is bit-exact")
    func pngThroughLosslessWebP() throws {
        let source = Self.everyColourUnderEveryAlpha
        let png = try coders.encode(Image(pixels: source), as: .png, options: ImageEncodingOptions())
        let webp = try coders.encode(try coders.decode(png), as: .webp, options: ImageEncodingOptions(lossless: true))
        let fromWebP = try coders.decode(webp)
        #expect(fromWebP.pixels == source)
        let back = try coders.decode(try coders.encode(fromWebP, as: .png, options: ImageEncodingOptions()))
        #expect(back.pixels == source)
    }

    @Test("A crop (no resampling) of a decoded image re-encodes bit-exact")
    func cropKeepsExactPixels() throws {
        let source = Self.everyColourUnderEveryAlpha
        let png = try coders.encode(Image(pixels: source), as: .png, options: ImageEncodingOptions())
        let rect = PixelRect(x: 10, y: 3, width: 200, height: 120)
        let cropped = try CropTransformer(rect: rect).transform(try coders.decode(png))
        #expect(cropped.pixels.alphaMode == .straight)
        let decoded = try coders.decode(try coders.encode(cropped, as: .png, options: ImageEncodingOptions()))
        #expect(decoded.pixels == (try source.cropped(to: rect)))
    }

    @Test("A resize of a straight image is resampled premultiplied and returned straight")
    func resizeReturnsStraight() throws {
        // Opaque red beside transparent black: straight-alpha resampling would darken the edge.
        var source = PixelBuffer(width: 8, height: 1, alphaMode: .straight)
        for x in 0..<4 { source[x, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255) }
        let png = try coders.encode(Image(pixels: source), as: .png, options: ImageEncodingOptions())
        let resized = try ResizeTransformer(size: PixelSize(width: 4, height: 1)).transform(try coders.decode(png))
        #expect(resized.pixels.alphaMode == .straight)
        for x in 0..<4 where resized.pixels[x, 0].a > 0 {
            #expect(resized.pixels[x, 0].r == 255, "dark fringe at \(x): \(resized.pixels[x, 0])")
        }
    }

    @Test("Translucent animations round-trip bit-exact through APNG, and through lossless WebP", arguments: [ImageFormat.apng, .webp])
    func animations(_ format: ImageFormat) throws {
        var frames: [AnimationFrame] = []
        for index in 0..<3 {
            var pixels = try Self.everyColourUnderEveryAlpha.cropped(to: PixelRect(x: index * 40, y: 60, width: 64, height: 48))
            pixels[index, index] = RGBA8(r: 17, g: 200, b: 3, a: 9)
            frames.append(AnimationFrame(pixels: pixels, duration: 0.1))
        }
        let source = Image(pixels: frames[0].pixels, animation: InMemoryAnimation(frames: frames, loopCount: 0))
        let encoded = try coders.encode(source, as: format, options: ImageEncodingOptions(lossless: true))
        let decoded = try #require(try coders.decode(encoded).animation)
        let apng = try coders.encode(try coders.decode(encoded), as: .png, options: ImageEncodingOptions())
        let replayed = try #require(try coders.decode(apng).animation)
        for index in 0..<3 {
            #expect(try decoded.frame(at: index).pixels == frames[index].pixels, "frame \(index)")
            #expect(try replayed.frame(at: index).pixels == frames[index].pixels, "frame \(index) after APNG")
        }
    }

    @Test("Premultiplied decoding is still available on request")
    func premultipliedOnRequest() throws {
        let source = Self.everyColourUnderEveryAlpha
        let png = try coders.encode(Image(pixels: source), as: .png, options: ImageEncodingOptions())
        let premultiplied = try coders.decode(png, options: ImageDecodingOptions(alphaMode: .premultiplied))
        #expect(premultiplied.pixels == source.premultiplied())
    }
}
