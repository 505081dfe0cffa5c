import Testing
import WebImage
import WebImageTesting

@Suite("Resize rules: no upscaling by default, padding on request, pixel limits, displayed orientation")
struct ResizeRulesTests {
    let small = Image(pixels: ImageFixtures.gradient(width: 200, height: 100), format: .jpeg)
    let box = PixelSize(width: 400, height: 400)

    @Test("Without allowsUpscaling no axis grows, in every mode")
    func neverUpscalesByDefault() throws {
        let fit = try ResizeTransformer(size: box, mode: .aspectFit).transform(small)
        #expect(fit.pixelSize == PixelSize(width: 200, height: 100))
        #expect(fit.pixels == small.pixels)
        let fill = try ResizeTransformer(size: box, mode: .fill).transform(small)
        #expect(fill.pixelSize == PixelSize(width: 200, height: 100))
        // Cover crops the source to the box's proportions, without enlarging it.
        let cover = try ResizeTransformer(size: box, mode: .aspectFill).transform(small)
        #expect(cover.pixelSize == PixelSize(width: 100, height: 100))
        #expect(cover.pixels == (try small.pixels.cropped(to: PixelRect(x: 50, y: 0, width: 100, height: 100))))
        // One axis larger than the source: fill clamps that axis only.
        let wide = try ResizeTransformer(size: PixelSize(width: 50, height: 300), mode: .fill).transform(small)
        #expect(wide.pixelSize == PixelSize(width: 50, height: 100))
    }

    @Test("With allowsUpscaling each mode reaches the size")
    func upscalesWhenAllowed() throws {
        let fit = try ResizeTransformer(size: box, mode: .aspectFit, allowsUpscaling: true).transform(small)
        #expect(fit.pixelSize == PixelSize(width: 400, height: 200))
        let fill = try ResizeTransformer(size: box, mode: .fill, allowsUpscaling: true).transform(small)
        #expect(fill.pixelSize == box)
        let cover = try ResizeTransformer(size: box, mode: .aspectFill, allowsUpscaling: true).transform(small)
        #expect(cover.pixelSize == box)
        #expect(cover.pixels.isOpaque)
    }

    @Test("padsToSize centres the result on a transparent canvas of exactly the size")
    func padding() throws {
        let padded = try ResizeTransformer(size: box, mode: .aspectFit, padsToSize: true).transform(small)
        #expect(padded.pixelSize == box)
        #expect(padded.pixels[200, 200] == small.pixels[100, 50])
        #expect(padded.pixels[10, 200].a == 0)
        #expect(padded.pixels[200, 10].a == 0)
        // SDWebImage's behaviour: upscaled and padded.
        let sd = try ResizeTransformer(size: box, mode: .aspectFit, allowsUpscaling: true, padsToSize: true).transform(small)
        #expect(sd.pixelSize == box)
        #expect(sd.pixels[200, 50].a == 0)
        #expect(sd.pixels[200, 200].a == 255)
    }

    @Test("A result over the pixel limit is tooLarge, from the sizes alone", arguments: ResizeTransformer.Mode.allCases)
    func pixelLimit(mode: ResizeTransformer.Mode) throws {
        for (size, upscale, pad) in [
            (PixelSize(width: 20_000, height: 20_000), true, false),
            (PixelSize(width: 100_000, height: 100_000), false, true),
            (PixelSize(width: .max, height: mode == .aspectFit ? .max : 1), true, false),
            (PixelSize(width: .max, height: .max), true, false),
            (PixelSize(width: .max, height: .max), false, true),
        ] {
            let error = #expect(throws: WebImageError.self, "\(size) \(mode)") {
                try ResizeTransformer(size: size, mode: mode, allowsUpscaling: upscale, padsToSize: pad).transform(small)
            }
            #expect(error?.code == .tooLarge)
        }
        let limited = #expect(throws: WebImageError.self) {
            try ResizeTransformer(size: PixelSize(width: 100, height: 100), mode: mode, allowsUpscaling: true, maxPixelCount: 4_000)
                .transform(small)
        }
        #expect(limited?.code == .tooLarge)
        // Huge sizes that do not enlarge anything are fine: nothing big is made.
        let fit = try ResizeTransformer(size: PixelSize(width: .max, height: .max), mode: mode).transform(small)
        #expect(fit.pixelSize.pixelCount <= small.pixelSize.pixelCount)
    }

    @Test("Sizes are in the displayed orientation", arguments: ImageOrientation.allCases, ResizeTransformer.Mode.allCases)
    func displayedOrientation(orientation: ImageOrientation, mode: ResizeTransformer.Mode) throws {
        let stored = ImageFixtures.gradient(width: 200, height: 100)
        let image = Image(pixels: stored, orientation: orientation, format: .jpeg)
        let size = PixelSize(width: 50, height: 1000)
        let out = try ResizeTransformer(size: size, mode: mode).transform(image)
        #expect(out.orientation == orientation)
        #expect(out.format == .jpeg)
        // The same as resizing the upright image.
        let upright = try ResizeTransformer(size: size, mode: mode).transform(Image(pixels: stored.oriented(orientation)))
        let displayed = out.pixels.oriented(orientation)
        #expect(displayed.size == upright.pixelSize)
        #expect(out.size.width <= 50)
        if displayed.size == upright.pixelSize {
            #expect(ImageFixtures.meanAbsoluteDifference(displayed, upright.pixels) < 2)
        }
    }

    @Test("A portrait photo stored landscape with orientation 6, fitted to 320×1000, displays 320 wide")
    func portraitStoredLandscape() throws {
        let photo = Image(pixels: ImageFixtures.gradient(width: 800, height: 600), orientation: .right)
        let out = try ResizeTransformer(size: PixelSize(width: 320, height: 1000), mode: .aspectFit).transform(photo)
        #expect(out.pixelSize == PixelSize(width: 427, height: 320))
        #expect(out.size.width == 320)
        #expect(out.size.height == 427)
    }

    @Test("Crop rectangles are in the displayed orientation", arguments: ImageOrientation.allCases)
    func cropDisplayed(orientation: ImageOrientation) throws {
        let stored = ImageFixtures.gradient(width: 40, height: 30)
        let image = Image(pixels: stored, orientation: orientation, format: .png)
        let rect = PixelRect(x: 3, y: 5, width: 11, height: 7)
        let out = try CropTransformer(rect: rect).transform(image)
        #expect(out.orientation == orientation)
        #expect(out.format == .png)
        #expect(out.pixels.oriented(orientation) == (try stored.oriented(orientation).cropped(to: rect)))
    }

    @Test("Crop rectangles with edges beyond Int's range are clipped, not trapped on")
    func cropOverflow() throws {
        let out = try CropTransformer(rect: PixelRect(x: 10, y: 20, width: .max, height: .max)).transform(small)
        #expect(out.pixelSize == PixelSize(width: 190, height: 80))
        let error = #expect(throws: WebImageError.self) {
            try CropTransformer(rect: PixelRect(x: .max, y: .max, width: .max, height: .max)).transform(small)
        }
        #expect(error?.code == .badImageData)
        #expect(PixelRect(x: .min, y: 0, width: .max, height: 1).intersection(PixelRect(x: 0, y: 0, width: 5, height: 5)).width == 0)
    }

    @Test("A transformed image keeps its source's format", arguments: [ImageFormat.jpeg, .png, .gif, .webp])
    func formatKept(format: ImageFormat) throws {
        let image = Image(pixels: ImageFixtures.gradient(width: 64, height: 48), format: format)
        let transformers: [any ImageTransforming] = [
            ResizeTransformer(size: PixelSize(width: 16, height: 16), mode: .aspectFill),
            CropTransformer(rect: PixelRect(x: 0, y: 0, width: 8, height: 8)),
            ChainedTransformer([ResizeTransformer(size: PixelSize(width: 32, height: 32)), CropTransformer(rect: PixelRect(x: 1, y: 1, width: 4, height: 4))]),
        ]
        for transformer in transformers { #expect(try transformer.transform(image).format == format) }
        let animated = ImageFixtures.animation(frames: 2)
        #expect(try ResizeTransformer(size: PixelSize(width: 8, height: 8)).transform(animated).animation?.frameCount == 2)
    }
}

@Suite("Pixel buffers with sizes from input")
struct PixelBufferLimitTests {
    @Test("The checked initialisers throw instead of trapping or allocating")
    func checked() throws {
        let overflow = #expect(throws: WebImageError.self) {
            try PixelBuffer(width: .max, height: 2, alphaMode: .premultiplied, maxPixelCount: .max)
        }
        #expect(overflow?.code == .tooLarge)
        let quarter = #expect(throws: WebImageError.self) {
            try PixelBuffer(width: Int.max / 4 + 1, height: 1, alphaMode: .premultiplied, maxPixelCount: .max) { _ in }
        }
        #expect(quarter?.code == .tooLarge)
        let limit = #expect(throws: WebImageError.self) {
            try PixelBuffer(width: 101, height: 100, alphaMode: .premultiplied, maxPixelCount: 10_000)
        }
        #expect(limit?.code == .tooLarge)
        let empty = #expect(throws: WebImageError.self) {
            try PixelBuffer(width: 0, height: 5, alphaMode: .premultiplied, maxPixelCount: 10)
        }
        #expect(empty?.code == .badImageData)
        let ok = try PixelBuffer(width: 100, height: 100, alphaMode: .straight, maxPixelCount: 10_000, fill: .white)
        #expect(ok.bytes.count == 40_000)
        #expect(ok[99, 99] == .white)
    }
}
