import Testing
@testable import WebImage

@Suite("Resize filters, keys and the pipeline")
struct TransformerSetTests {
    static let overlay = Image(pixels: PixelBuffer(width: 4, height: 4, alphaMode: .straight, fill: .white))

    static let all: [any ImageTransforming] = [
        ResizeTransformer(size: PixelSize(width: 10, height: 10)),
        ResizeTransformer(size: PixelSize(width: 10, height: 10), filter: .mitchell),
        ResizeTransformer(size: PixelSize(width: 10, height: 10), filter: .nearest),
        CropTransformer(rect: PixelRect(x: 0, y: 0, width: 5, height: 5)),
        GravityCropTransformer(size: PixelSize(width: 5, height: 5)),
        GravityCropTransformer(size: PixelSize(width: 5, height: 5), anchor: .gravity(.north)),
        GravityCropTransformer(size: PixelSize(width: 5, height: 5), anchor: .attention),
        RoundCornerTransformer(radius: 4),
        RoundCornerTransformer(radius: 4, corners: .topLeft),
        RoundCornerTransformer(radius: 4, borderWidth: 1, borderColor: .white),
        RoundCornerTransformer.circle(),
        FlipTransformer(horizontal: true),
        FlipTransformer(vertical: true),
        RotateTransformer(degrees: 90),
        RotateTransformer(degrees: 90, fitsSize: false),
        RotateTransformer(degrees: 12.5),
        TintTransformer(color: .white),
        TintTransformer(color: .white, blendMode: .multiply),
        ColorMatrixTransformer.grayscale(),
        ColorMatrixTransformer.sepia(),
        ColorMatrixTransformer.brightness(1.2),
        ColorMatrixTransformer.contrast(1.2),
        ColorMatrixTransformer.saturation(1.2),
        ColorMatrixTransformer.invert(),
        ColorMatrixTransformer(matrix: [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0.5]),
        GaussianBlurTransformer(sigma: 2),
        GaussianBlurTransformer(sigma: 2.5),
        SharpenTransformer(),
        CompositeTransformer(overlay: overlay),
        CompositeTransformer(overlay: overlay, opacity: 0.5),
    ]

    @Test("Keys are distinct, stable and free of the pipeline separator's ambiguity")
    func keys() {
        let keys = Self.all.map(\.key)
        #expect(Set(keys).count == keys.count, "\(keys)")
        #expect(keys == Self.all.map(\.key))
        #expect(ResizeTransformer(size: PixelSize(width: 10, height: 10)).key == "ResizeTransformer(10x10,fill)")
        #expect(RotateTransformer(degrees: -90).key == RotateTransformer(degrees: 270).key)
        #expect(FlipTransformer(horizontal: true).key == "FlipTransformer(1,0)")
        #expect(GaussianBlurTransformer(sigma: 2).key == "GaussianBlurTransformer(2)")
        #expect(TintTransformer(color: RGBA8(r: 255, g: 0, b: 16)).key == "TintTransformer(#ff0010ff,normal)")
    }

    @Test("The pipeline joins keys with '-' as SDWebImage does; an empty pipeline is the identity")
    func pipeline() throws {
        let chain = ChainedTransformer([FlipTransformer(horizontal: true), GaussianBlurTransformer(sigma: 1)])
        #expect(chain.key == "FlipTransformer(1,0)-GaussianBlurTransformer(1)")
        let image = Image(pixels: TransformSamples.random(width: 9, height: 7, seed: 9))
        #expect(try ChainedTransformer([]).transform(image) === image)
        let stepwise = try GaussianBlurTransformer(sigma: 1).transform(FlipTransformer(horizontal: true).transform(image))
        #expect(try chain.transform(image).pixels == stepwise.pixels)
    }

    @Test("Every transformer handles an animation lazily, frame by frame, with a consistent canvas")
    func animated() throws {
        let animated = Image(
            pixels: TransformSamples.random(width: 12, height: 10, seed: 1),
            animation: InMemoryAnimation(frames: (0..<3).map {
                AnimationFrame(pixels: TransformSamples.random(width: 12, height: 10, seed: UInt64($0 + 1)), duration: 0.1)
            }))
        for transformer in Self.all {
            let out = try transformer.transform(animated)
            let animation = try #require(out.animation, "\(transformer.key)")
            #expect(animation.frameCount == 3)
            #expect(try animation.frame(at: 2).pixels.size == animation.canvasSize, "\(transformer.key)")
            #expect(try animation.frame(at: 0).pixels == out.pixels, "\(transformer.key)")
        }
    }

    @Test("Every filter keeps a constant image constant", arguments: Resampler.Filter.allCases)
    func constant(filter: Resampler.Filter) throws {
        let colour = RGBA8(r: 10, g: 200, b: 77)
        let flat = PixelBuffer(width: 50, height: 30, alphaMode: .straight, fill: colour)
        for size in [PixelSize(width: 13, height: 7), PixelSize(width: 120, height: 61)] {
            let out = try ResizeTransformer(size: size, allowsUpscaling: true, filter: filter).transform(Image(pixels: flat))
            #expect(out.pixels == PixelBuffer(width: size.width, height: size.height, alphaMode: .straight, fill: colour))
        }
    }

    @Test("Lanczos, Mitchell and bilinear on a ramp stay within one level of the analytic value", arguments: [
        Resampler.Filter.lanczos3, .mitchell, .bilinear,
    ])
    func ramp(filter: Resampler.Filter) {
        // Red = x over 256 columns: the ramp's value at an output centre is its position.
        var ramp = PixelBuffer(width: 256, height: 4, alphaMode: .premultiplied)
        for y in 0..<4 { for x in 0..<256 { ramp[x, y] = RGBA8(r: UInt8(x), g: 0, b: 0) } }
        for width in [64, 100, 400] {
            let out = Resampler.resample(ramp, to: PixelSize(width: width, height: 4), filter: filter)
            let scale = 256.0 / Double(width)
            // Away from the edges, where the kernel is not cut.
            let margin = Int((4 * max(scale, 1) / scale).rounded(.up)) + 1
            for x in margin..<(width - margin) {
                let analytic = (Double(x) + 0.5) * scale - 0.5
                #expect(abs(Double(out[x, 2].r) - analytic) <= 1, "\(filter) \(width) x=\(x): \(out[x, 2].r) vs \(analytic)")
            }
        }
    }

    @Test("Nearest picks source pixels without blending; its key names it; Lanczos keys stay as before")
    func nearest() throws {
        let source = TransformSamples.random(width: 40, height: 30, seed: 8)
        let out = try ResizeTransformer(size: PixelSize(width: 10, height: 10), filter: .nearest).transform(Image(pixels: source)).pixels
        for y in 0..<10 {
            for x in 0..<10 {
                // Output centre (x + 0.5) · 4 lands in source column 4x + 2, row 3y + 1.
                #expect(out[x, y] == source[4 * x + 2, 3 * y + 1])
            }
        }
        #expect(ResizeTransformer(size: PixelSize(width: 10, height: 10), filter: .nearest).key == "ResizeTransformer(10x10,fill,nearest)")
        let up = Resampler.resample(source, to: PixelSize(width: 80, height: 60), filter: .nearest)
        #expect(up[1, 1] == source[0, 0] && up[2, 2] == source[1, 1])
    }
}
