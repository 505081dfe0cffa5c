import Testing
import WebImage
import WebImageTesting

@testable import WebImageGIF

@Suite("Palette quantizer")
struct PaletteQuantizerTests {
    /// The straight pixels a quantized image stands for (transparent pixels as clear).
    static func expand(_ image: QuantizedImage) -> PixelBuffer {
        PixelBuffer(width: image.width, height: image.height, alphaMode: .straight) { out in
            for (i, index) in image.indices.enumerated() {
                let color = Int(index) == image.transparentIndex ? RGBA8.clear : image.palette[Int(index)]
                out[i * 4] = color.r
                out[i * 4 + 1] = color.g
                out[i * 4 + 2] = color.b
                out[i * 4 + 3] = color.a
            }
        }
    }

    @Test func keepsSmallPalettesExact() {
        let pixels = GIFEncodingTests.palettized(colors: 200)
        let quantized = PaletteQuantizer().quantize(pixels)
        #expect(quantized.isExact)
        #expect(quantized.palette.count == 200)
        #expect(quantized.transparentIndex == nil)
        #expect(Self.expand(quantized) == pixels)
    }

    @Test func reservesOneEntryForTransparency() {
        var pixels = GIFEncodingTests.palettized(colors: 256)
        #expect(PaletteQuantizer().quantize(pixels).isExact)
        pixels[0, 0] = .clear
        let quantized = PaletteQuantizer().quantize(pixels)
        // 256 colours + transparency no longer fit: reduced to 255 + the transparent index.
        #expect(!quantized.isExact)
        #expect(quantized.palette.count <= 255)
        #expect(quantized.transparentIndex == quantized.palette.count)
        #expect(Int(quantized.indices[0]) == quantized.transparentIndex)
        #expect(quantized.indices.dropFirst().allSatisfy { Int($0) < quantized.palette.count })
    }

    @Test func fullyTransparentImages() {
        let pixels = PixelBuffer(width: 3, height: 3, alphaMode: .straight)
        let quantized = PaletteQuantizer().quantize(pixels)
        #expect(quantized.transparentIndex == quantized.palette.count)
        #expect(Self.expand(quantized) == pixels)
    }

    /// A 128×128 gradient has 16,384 colours on a plane: 256 entries leave each one a patch of
    /// about 8×8 pixels (16 levels a side), so the best possible mean error is about 4 levels per
    /// colour channel, 3 per RGBA byte. Dithering trades per-pixel error for correct averages.
    @Test(arguments: [(256, false, 3.0), (256, true, 3.6), (64, false, 6.0), (64, true, 7.2), (16, true, 14.5)])
    func meanErrorOnAGradientIsBounded(colors: Int, dithering: Bool, bound: Double) {
        let pixels = ImageFixtures.gradient(width: 128, height: 128, alphaMode: .straight)
        let quantized = PaletteQuantizer(maxColors: colors, dithering: dithering).quantize(pixels)
        #expect(!quantized.isExact)
        #expect(quantized.palette.count <= colors)
        let error = ImageFixtures.meanAbsoluteDifference(Self.expand(quantized), pixels)
        #expect(error < bound, "\(colors) colours, dithering \(dithering): mean error \(error)")
        if !dithering {
            let worst = ImageFixtures.maxAbsoluteDifference(Self.expand(quantized), pixels)
            #expect(worst <= (colors == 256 ? 16 : 32), "\(colors) colours: worst error \(worst)")
        }
    }

    @Test func ditheringPreservesTheAverageColour() {
        // Error diffusion keeps each channel's mean even with only 8 colours.
        let pixels = ImageFixtures.gradient(width: 64, height: 64, alphaMode: .straight)
        let quantized = PaletteQuantizer(maxColors: 8, dithering: true).quantize(pixels)
        let expanded = Self.expand(quantized)
        for channel in 0..<3 {
            var a = 0, b = 0
            for i in stride(from: channel, to: pixels.bytes.count, by: 4) {
                a += Int(pixels.bytes[i])
                b += Int(expanded.bytes[i])
            }
            let count = pixels.width * pixels.height
            #expect(abs(Double(a - b) / Double(count)) < 2.0, "channel \(channel)")
        }
    }

    @Test func qualityMapsToColourCount() {
        #expect(PaletteQuantizer.colorCount(forQuality: 1) == 256)
        #expect(PaletteQuantizer.colorCount(forQuality: 0.9) == 256)
        #expect(PaletteQuantizer.colorCount(forQuality: 0.8) == 256)
        #expect(PaletteQuantizer.colorCount(forQuality: 0.4) == 136)
        #expect(PaletteQuantizer.colorCount(forQuality: 0) == 16)
        #expect(PaletteQuantizer.colorCount(forQuality: -3) == 16)
        #expect(PaletteQuantizer(maxColors: 1000).maxColors == 256)
        #expect(PaletteQuantizer(maxColors: 0).maxColors == 2)
    }
}
