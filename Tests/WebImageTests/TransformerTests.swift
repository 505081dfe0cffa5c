import Testing
import WebImage
import WebImageTesting

@Suite("Resize and crop transformers")
struct TransformerTests {
    let image = Image(pixels: ImageFixtures.gradient(width: 200, height: 100))

    @Test("fill stretches to exactly the size")
    func fill() throws {
        let out = try ResizeTransformer(size: PixelSize(width: 50, height: 50), mode: .fill).transform(image)
        #expect(out.pixelSize == PixelSize(width: 50, height: 50))
        #expect(out.pixels.isOpaque)
    }

    @Test("aspectFit gives the fitted size, without margins")
    func aspectFit() throws {
        let out = try ResizeTransformer(size: PixelSize(width: 50, height: 50), mode: .aspectFit).transform(image)
        #expect(out.pixelSize == PixelSize(width: 50, height: 25))
        #expect(out.pixels.isOpaque)
    }

    @Test("aspectFit with padsToSize fits inside with transparent margins on a canvas of exactly the size")
    func aspectFitPadded() throws {
        let out = try ResizeTransformer(size: PixelSize(width: 50, height: 50), mode: .aspectFit, padsToSize: true)
            .transform(image)
        #expect(out.pixelSize == PixelSize(width: 50, height: 50))
        // 200×100 fits as 50×25, centred: rows 0..11 and 37..49 are transparent.
        #expect(out.pixels[25, 5].a == 0)
        #expect(out.pixels[25, 45].a == 0)
        #expect(out.pixels[25, 25].a == 255)
    }

    @Test("aspectFill covers the size and crops the centre")
    func aspectFill() throws {
        let out = try ResizeTransformer(size: PixelSize(width: 50, height: 50), mode: .aspectFill).transform(image)
        #expect(out.pixelSize == PixelSize(width: 50, height: 50))
        #expect(out.pixels.isOpaque)
        // The centre column of the source (red ≈ 128) stays in the middle.
        #expect(abs(Int(out.pixels[25, 25].r) - 128) <= 4)
    }

    @Test("crop takes the rectangle, clipped to the image; outside is an error")
    func crop() throws {
        let out = try CropTransformer(rect: PixelRect(x: 150, y: 50, width: 100, height: 100)).transform(image)
        #expect(out.pixelSize == PixelSize(width: 50, height: 50))
        #expect(out.pixels[0, 0] == image.pixels[150, 50])
        #expect(throws: WebImageError.self) {
            try CropTransformer(rect: PixelRect(x: 300, y: 0, width: 10, height: 10)).transform(image)
        }
    }

    @Test("Animations are transformed frame by frame, keeping timing")
    func animated() throws {
        let animated = ImageFixtures.animation(frames: 3, duration: 0.2, loopCount: 2)
        let out = try ResizeTransformer(size: PixelSize(width: 16, height: 16)).transform(animated)
        let animation = try #require(out.animation)
        #expect(animation.frameCount == 3)
        #expect(animation.loopCount == 2)
        #expect(animation.canvasSize == PixelSize(width: 16, height: 16))
        #expect(try animation.frame(at: 2).pixels.size == PixelSize(width: 16, height: 16))
        #expect(animation.duration(at: 1) == 0.2)
    }

    @Test("Keys name the parameters; a pipeline joins them")
    func keys() {
        let resize = ResizeTransformer(size: PixelSize(width: 10, height: 20), mode: .aspectFit)
        let crop = CropTransformer(rect: PixelRect(x: 1, y: 2, width: 3, height: 4))
        #expect(resize.key != ResizeTransformer(size: PixelSize(width: 10, height: 20), mode: .fill).key)
        #expect(ChainedTransformer([resize, crop]).key == resize.key + "-" + crop.key)
        #expect(resize.key == "ResizeTransformer(10x20,aspectFit)")
        let both = ResizeTransformer(size: PixelSize(width: 10, height: 20), mode: .aspectFit, allowsUpscaling: true, padsToSize: true)
        #expect(both.key == "ResizeTransformer(10x20,aspectFit,upscale,pad)")
        // The pixel limit does not change a successful result, so it is not part of the key.
        #expect(ResizeTransformer(size: PixelSize(width: 10, height: 20), maxPixelCount: 7).key == ResizeTransformer(size: PixelSize(width: 10, height: 20)).key)
    }
}
