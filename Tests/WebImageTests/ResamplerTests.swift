import Testing
import WebImage
import WebImageTesting

@Suite("Resampler")
struct ResamplerTests {
    @Test("A flat colour stays exactly that colour at every size and filter", arguments: Resampler.Filter.allCases)
    func flatColour(filter: Resampler.Filter) {
        let colour = RGBA8(r: 200, g: 100, b: 50, a: 255)
        let source = PixelBuffer(width: 97, height: 61, alphaMode: .premultiplied, fill: colour)
        for size in [PixelSize(width: 10, height: 7), PixelSize(width: 300, height: 200), PixelSize(width: 1, height: 1)] {
            let out = Resampler.resample(source, to: size, filter: filter)
            #expect(out.size == size)
            #expect(out == PixelBuffer(width: size.width, height: size.height, alphaMode: .premultiplied, fill: colour))
        }
    }

    @Test("Halving a checkerboard averages it to grey with the box filter")
    func boxAverage() {
        var checker = PixelBuffer(width: 8, height: 8, alphaMode: .premultiplied)
        for y in 0..<8 { for x in 0..<8 { checker[x, y] = (x + y) % 2 == 0 ? .white : .black } }
        let half = Resampler.resample(checker, to: PixelSize(width: 4, height: 4), filter: .box)
        for y in 0..<4 { for x in 0..<4 { #expect(abs(Int(half[x, y].r) - 128) <= 1) } }
    }

    @Test("Downscaling a gradient keeps it close to the exact area average")
    func gradientQuality() {
        let source = ImageFixtures.gradient(width: 400, height: 300)
        let small = Resampler.resample(source, to: PixelSize(width: 100, height: 75))
        let reference = ImageFixtures.gradient(width: 100, height: 75)
        #expect(ImageFixtures.meanAbsoluteDifference(small, reference) < 3)
    }

    @Test("Straight-alpha input is resampled premultiplied (no dark fringes) and returned straight")
    func straightAlpha() {
        var source = PixelBuffer(width: 4, height: 1, alphaMode: .straight)
        source[0, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255)
        source[1, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255)
        source[2, 0] = RGBA8(r: 0, g: 0, b: 0, a: 0)
        source[3, 0] = RGBA8(r: 0, g: 0, b: 0, a: 0)
        let out = Resampler.resample(source, to: PixelSize(width: 1, height: 1), filter: .box)
        #expect(out.alphaMode == .straight)
        #expect(out[0, 0].r >= 254)
        #expect(abs(Int(out[0, 0].a) - 128) <= 1)
    }
}

@Suite("Resampler source extent")
struct ResamplerExtentTests {
    @Test("A fractional source extent maps the output onto that part of the source only")
    func extent() {
        var source = PixelBuffer(width: 2, height: 1, alphaMode: .premultiplied)
        source[0, 0] = .white
        source[1, 0] = .black
        let first = Resampler.resample(source, to: PixelSize(width: 1, height: 1), sourceExtent: (1, 1), filter: .box)
        #expect(first[0, 0] == .white)
        let whole = Resampler.resample(source, to: PixelSize(width: 1, height: 1), filter: .box)
        #expect(abs(Int(whole[0, 0].r) - 128) <= 1)
        // Same size with a partial extent still resamples (a stretch of the covered part).
        let stretched = Resampler.resample(source, to: PixelSize(width: 2, height: 1), sourceExtent: (1, 1), filter: .box)
        #expect(stretched[1, 0] == .white)
    }
}
