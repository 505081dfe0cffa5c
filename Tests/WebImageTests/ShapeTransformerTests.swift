import Testing
@testable import WebImage

@Suite("Round corners, gravity and attention crops, composite")
struct ShapeTransformerTests {
    @Test("Round corners leave the interior untouched and make the corners transparent, in both alpha modes")
    func roundCorners() throws {
        for alpha in [false, true] {
            let source = TransformSamples.random(width: 60, height: 40, seed: 11, alpha: alpha)
            let out = try RoundCornerTransformer(radius: 10).transform(Image(pixels: source)).pixels
            #expect(out.alphaMode == .straight)
            for y in 0..<40 {
                for x in 0..<60 {
                    // Pixels at least a radius from both a vertical and a horizontal edge, or any
                    // pixel not in a corner square, are untouched.
                    let inCorner = (x < 10 || x >= 50) && (y < 10 || y >= 30)
                    if !inCorner { #expect(out[x, y] == source[x, y], "\(x),\(y)") }
                }
            }
            for (x, y) in [(0, 0), (59, 0), (0, 39), (59, 39), (1, 1), (2, 0)] { #expect(out[x, y].a == 0) }
            // Inside the arc (distance from the corner centre < radius − 1) is also untouched.
            #expect(out[5, 5] == source[5, 5])
            // The anti-aliased edge: partial coverage somewhere on the arc.
            if !alpha {
                let partial = (0..<10).contains { y in (0..<10).contains { x in out[x, y].a > 0 && out[x, y].a < 255 } }
                #expect(partial)
            }
        }
    }

    @Test("Only the chosen corners are rounded; a border is drawn inside the edge; circle crops to the square")
    func cornersBorderCircle() throws {
        let source = PixelBuffer(width: 40, height: 30, alphaMode: .premultiplied, fill: .white)
        let top = try RoundCornerTransformer(radius: 8, corners: [.topLeft, .topRight]).transform(Image(pixels: source))
        #expect(top.pixels[0, 0].a == 0 && top.pixels[39, 0].a == 0)
        #expect(top.pixels[0, 29] == .white && top.pixels[39, 29] == .white)
        #expect(top.pixels.alphaMode == .premultiplied)
        let red = RGBA8(r: 255, g: 0, b: 0)
        let bordered = try RoundCornerTransformer(radius: 8, borderWidth: 3, borderColor: red).transform(Image(pixels: source))
        #expect(bordered.pixels[20, 1] == red)
        #expect(bordered.pixels[1, 15] == red)
        #expect(bordered.pixels[20, 3] == .white)
        let circle = try RoundCornerTransformer.circle().transform(Image(pixels: source))
        #expect(circle.pixelSize == PixelSize(width: 30, height: 30))
        #expect(circle.pixels[15, 15] == .white)
        #expect(circle.pixels[0, 0].a == 0 && circle.pixels[2, 2].a == 0)
        #expect(circle.pixels[15, 0].a > 200)
        #expect(throws: WebImageError.self) { try RoundCornerTransformer(radius: -1).transform(Image(pixels: source)) }
    }

    @Test("Gravity places the crop at the centre, edges and corners of the displayed image")
    func gravity() throws {
        let source = TransformSamples.numbered(width: 50, height: 40)
        let image = Image(pixels: source)
        let size = PixelSize(width: 10, height: 8)
        let expected: [(ImageGravity, Int, Int)] = [
            (.center, 20, 16), (.north, 20, 0), (.south, 20, 32), (.east, 40, 16), (.west, 0, 16),
            (.northWest, 0, 0), (.northEast, 40, 0), (.southWest, 0, 32), (.southEast, 40, 32),
        ]
        for (gravity, x, y) in expected {
            let out = try GravityCropTransformer(size: size, anchor: .gravity(gravity)).transform(image)
            #expect(out.pixels == (try source.cropped(to: PixelRect(x: x, y: y, width: 10, height: 8))), "\(gravity)")
        }
        // Larger than the image: clipped to it.
        #expect(try GravityCropTransformer(size: PixelSize(width: 500, height: 8)).transform(image).pixelSize == PixelSize(width: 50, height: 8))
        #expect(throws: WebImageError.self) { try GravityCropTransformer(size: PixelSize(width: 0, height: 8)).transform(image) }
    }

    @Test("Attention finds the detailed region; a flat image is centre-cropped")
    func attention() throws {
        // Flat grey with a noisy 40×40 patch at (130, 10) in a 200×120 image.
        var source = PixelBuffer(width: 200, height: 120, alphaMode: .straight, fill: RGBA8(r: 90, g: 90, b: 90))
        let noise = TransformSamples.random(width: 40, height: 40, seed: 5)
        source.draw(noise, at: (130, 10))
        let out = try GravityCropTransformer(size: PixelSize(width: 60, height: 60), anchor: .attention)
            .transform(Image(pixels: source))
        let rect = AttentionSearch.bestWindow(PixelSize(width: 60, height: 60), in: source)
        #expect(rect.x <= 130 && rect.x + 60 >= 170 && rect.y <= 10 && rect.y + 60 >= 50, "\(rect)")
        #expect(out.pixels == (try source.cropped(to: rect)))
        let flat = PixelBuffer(width: 200, height: 120, alphaMode: .straight, fill: .white)
        #expect(AttentionSearch.bestWindow(PixelSize(width: 60, height: 60), in: flat) == PixelRect(x: 70, y: 30, width: 60, height: 60))
    }

    @Test("Composite draws the overlay source-over at a gravity or position with opacity, like a reference")
    func composite() throws {
        let base = TransformSamples.random(width: 30, height: 20, seed: 21)
        let overlay = TransformSamples.random(width: 8, height: 6, seed: 22, alpha: true)
        for (placement, origin) in [
            (CompositeTransformer.Placement.gravity(.southEast, inset: 2), (20, 12)),
            (.position(x: -3, y: 17), (-3, 17)),
        ] {
            for opacity in [1.0, 0.5] {
                let out = try CompositeTransformer(overlay: Image(pixels: overlay), placement: placement, opacity: opacity)
                    .transform(Image(pixels: base)).pixels
                let reference = Self.referenceComposite(overlay, over: base, at: origin, opacity: opacity)
                #expect(TransformSamples.maxDifference(out, reference) <= 2, "\(placement) \(opacity)")
                #expect(out.alphaMode == .straight)
            }
        }
        let keyA = CompositeTransformer(overlay: Image(pixels: overlay)).key
        let keyB = CompositeTransformer(overlay: Image(pixels: base)).key
        #expect(keyA != keyB)
        #expect(keyA == CompositeTransformer(overlay: Image(pixels: overlay)).key)
    }

    /// Straight-alpha source-over in floating point, on an opaque base.
    static func referenceComposite(_ top: PixelBuffer, over base: PixelBuffer, at origin: (Int, Int), opacity: Double) -> PixelBuffer {
        var out = base
        for y in 0..<top.height {
            for x in 0..<top.width {
                let (bx, by) = (x + origin.0, y + origin.1)
                guard bx >= 0, by >= 0, bx < base.width, by < base.height else { continue }
                let t = top[x, y]
                let b = base[bx, by]
                let a = Double(t.a) / 255 * opacity
                func mix(_ s: UInt8, _ d: UInt8) -> UInt8 { UInt8((Double(s) * a + Double(d) * (1 - a)).rounded()) }
                out[bx, by] = RGBA8(r: mix(t.r, b.r), g: mix(t.g, b.g), b: mix(t.b, b.b), a: 255)
            }
        }
        return out
    }
}
