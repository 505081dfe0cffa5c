import Testing
@testable import WebImage

@Suite("Colour matrices and tint")
struct ColorTransformerTests {
    func apply(_ transformer: some ImageTransforming, to colour: RGBA8) throws -> RGBA8 {
        let pixels = PixelBuffer(width: 2, height: 2, alphaMode: .straight, fill: colour)
        return try transformer.transform(Image(pixels: pixels)).pixels[1, 1]
    }

    @Test("Presets on known colours")
    func presets() throws {
        let red = RGBA8(r: 255, g: 0, b: 0)
        // Rec. 709 luma of pure red: 0.2126 · 255 = 54.2.
        #expect(try apply(ColorMatrixTransformer.grayscale(), to: red) == RGBA8(r: 54, g: 54, b: 54))
        #expect(try apply(ColorMatrixTransformer.grayscale(), to: .white) == .white)
        #expect(try apply(ColorMatrixTransformer.grayscale(0), to: red) == red)
        // Sepia of white: rows sum to 1.351, 1.203, 0.937 → 255, 255, 239.
        #expect(try apply(ColorMatrixTransformer.sepia(), to: .white) == RGBA8(r: 255, g: 255, b: 239))
        #expect(try apply(ColorMatrixTransformer.invert(), to: RGBA8(r: 0, g: 100, b: 255)) == RGBA8(r: 255, g: 155, b: 0))
        #expect(try apply(ColorMatrixTransformer.brightness(0.5), to: RGBA8(r: 200, g: 100, b: 50)) == RGBA8(r: 100, g: 50, b: 25))
        #expect(try apply(ColorMatrixTransformer.contrast(0), to: RGBA8(r: 200, g: 10, b: 50)) == RGBA8(r: 128, g: 128, b: 128))
        #expect(try apply(ColorMatrixTransformer.contrast(2), to: RGBA8(r: 200, g: 100, b: 128)) == RGBA8(r: 255, g: 73, b: 129))
        #expect(try apply(ColorMatrixTransformer.saturation(0), to: red) == RGBA8(r: 54, g: 54, b: 54))
        #expect(try apply(ColorMatrixTransformer.saturation(1), to: RGBA8(r: 12, g: 200, b: 99)) == RGBA8(r: 12, g: 200, b: 99))
        // Alpha is kept, colour is straight.
        #expect(try apply(ColorMatrixTransformer.invert(), to: RGBA8(r: 10, g: 20, b: 30, a: 77)) == RGBA8(r: 245, g: 235, b: 225, a: 77))
    }

    /// `matrix` applied in floating point to straight pixels, rounded and clamped.
    func reference(_ matrix: [Double], _ source: PixelBuffer) -> PixelBuffer {
        var reference = source
        for i in stride(from: 0, to: source.bytes.count, by: 4) {
            let v = (0..<4).map { Double(source.bytes[i + $0]) / 255 }
            for row in 0..<4 {
                var sum = matrix[row * 5 + 4]
                for column in 0..<4 { sum += matrix[row * 5 + column] * v[column] }
                reference.bytes[i + row] = UInt8(min(255, max(0, (sum * 255).rounded())))
            }
        }
        return reference
    }

    @Test(
        "Every kernel path (greyscale dot product, alpha kept, general) matches a floating-point reference within one level",
        arguments: [
            ColorMatrixTransformer.grayscale(), .grayscale(0.3), .sepia(), .contrast(1.3), .invert(0.4),
            .saturation(1.7), .brightness(0.8),
            // Alpha row identity but alpha feeds colour: the general path.
            ColorMatrixTransformer(matrix: [0.5, 0.3, 0.1, 0.4, 0, 0.2, 0.2, 0.2, 0, 0.1, 0, 0, 1, -0.5, 0.2, 0, 0, 0, 1, 0]),
        ])
    func kernelPaths(_ transformer: ColorMatrixTransformer) throws {
        let source = TransformSamples.random(width: 40, height: 9, seed: 7, alpha: true)
        let out = ColorMatrixTransformer.apply(ColorMatrixTransformer.fixedPoint(transformer.matrix), to: source)
        #expect(TransformSamples.maxDifference(out, reference(transformer.matrix, source)) <= 1)
    }

    @Test("A raw matrix matches a floating-point reference within one level on random pixels; bad matrices throw")
    func rawMatrix() throws {
        let matrix: [Double] = [0.5, 0.3, -0.2, 0, 0.1, 0.1, 0.9, 0, 0, 0, -0.3, 0.2, 1.1, 0, 0.05, 0, 0, 0.1, 0.8, 0.02]
        let source = TransformSamples.random(width: 32, height: 16, seed: 31, alpha: true)
        let out = try ColorMatrixTransformer(matrix: matrix).transform(Image(pixels: source)).pixels
        var reference = source
        for i in stride(from: 0, to: source.bytes.count, by: 4) {
            let v = (0..<4).map { Double(source.bytes[i + $0]) / 255 }
            for row in 0..<4 {
                var sum = matrix[row * 5 + 4]
                for column in 0..<4 { sum += matrix[row * 5 + column] * v[column] }
                reference.bytes[i + row] = UInt8(min(255, max(0, (sum * 255).rounded())))
            }
        }
        #expect(TransformSamples.maxDifference(out, reference) <= 1)
        #expect(throws: WebImageError.self) { try ColorMatrixTransformer(matrix: [1, 2]).transform(Image(pixels: source)) }
        #expect(throws: WebImageError.self) {
            try ColorMatrixTransformer(matrix: Array(repeating: .infinity, count: 20)).transform(Image(pixels: source))
        }
    }

    @Test("Premultiplied input comes back premultiplied")
    func premultiplied() throws {
        let source = TransformSamples.random(width: 8, height: 8, seed: 4, alpha: true).premultiplied()
        let out = try ColorMatrixTransformer.sepia().transform(Image(pixels: source)).pixels
        #expect(out.alphaMode == .premultiplied)
        for i in stride(from: 0, to: out.bytes.count, by: 4) { #expect(out.bytes[i] <= out.bytes[i + 3]) }
    }

    @Test("Tint blend modes on known colours; the image's alpha is kept")
    func tint() throws {
        let grey = RGBA8(r: 128, g: 64, b: 200)
        let tint = RGBA8(r: 255, g: 128, b: 0)
        #expect(try apply(TintTransformer(color: tint), to: grey) == tint)
        #expect(try apply(TintTransformer(color: tint), to: RGBA8(r: 1, g: 2, b: 3, a: 40)) == RGBA8(r: 255, g: 128, b: 0, a: 40))
        // multiply: 128·255/255, 64·128/255 = 32.1, 0.
        #expect(try apply(TintTransformer(color: tint, blendMode: .multiply), to: grey) == RGBA8(r: 128, g: 32, b: 0))
        // screen: 255, 64 + 128 − 32.1 = 159.9, 200.
        #expect(try apply(TintTransformer(color: tint, blendMode: .screen), to: grey) == RGBA8(r: 255, g: 160, b: 200))
        // overlay: r: cb 0.502 > ½ → 1 − 2·0.498·0 = 255; g: cb 0.251 → 2·0.251·0.502 = 0.252 → 64;
        // b: cb 0.784 → 1 − 2·0.216·1 = 0.569 → 145.
        #expect(try apply(TintTransformer(color: tint, blendMode: .overlay), to: grey) == RGBA8(r: 255, g: 64, b: 145))
        #expect(try apply(TintTransformer(color: tint, blendMode: .darken), to: grey) == RGBA8(r: 128, g: 64, b: 0))
        // Half-strength normal tint: halfway (128 alpha ≈ 0.502).
        #expect(try apply(TintTransformer(color: RGBA8(r: 255, g: 255, b: 255, a: 128)), to: .black) == RGBA8(r: 128, g: 128, b: 128))
    }
}
