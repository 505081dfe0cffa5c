import Foundation
import Testing
@testable import WebImage

@Suite("Flip, rotate and the orientation kernel")
struct GeometryTransformerTests {
    let pixels = TransformSamples.numbered(width: 7, height: 5)

    @Test("Flipping twice, on either axis, is the identity")
    func flipTwice() throws {
        let image = Image(pixels: pixels)
        for flip in [FlipTransformer(horizontal: true), FlipTransformer(vertical: true), FlipTransformer(horizontal: true, vertical: true)] {
            let once = try flip.transform(image)
            #expect(once.pixels != pixels)
            #expect(try flip.transform(once).pixels == pixels)
        }
        #expect(try FlipTransformer(horizontal: true).transform(image).pixels[0, 0] == pixels[6, 0])
        #expect(try FlipTransformer(vertical: true).transform(image).pixels[0, 0] == pixels[0, 4])
    }

    @Test("Four quarter turns are the identity; one is a transpose then a horizontal flip")
    func quarterTurns() throws {
        let image = Image(pixels: pixels)
        var turned = image
        for _ in 0..<4 { turned = try RotateTransformer(degrees: 90).transform(turned) }
        #expect(turned.pixels == pixels)
        let once = try RotateTransformer(degrees: 90).transform(image).pixels
        #expect(once.size == PixelSize(width: 5, height: 7))
        for y in 0..<7 {
            for x in 0..<5 {
                // transpose: T[x, y] = P[y, x]; then flip horizontally: R[x, y] = T[4 - x, y].
                #expect(once[x, y] == pixels[y, 4 - x])
            }
        }
        #expect(try RotateTransformer(degrees: -90).transform(image).pixels == RotateTransformer(degrees: 270).transform(image).pixels)
        #expect(try RotateTransformer(degrees: 180).transform(image).pixels == FlipTransformer(horizontal: true, vertical: true).transform(image).pixels)
    }

    @Test("Composed orientations equal applying them one after the other, for all 64 pairs")
    func composition() {
        for a in ImageOrientation.allCases {
            for b in ImageOrientation.allCases {
                #expect(pixels.oriented(a).oriented(b) == pixels.oriented(a.followed(by: b)), "\(a) then \(b)")
            }
        }
    }

    @Test("The orientation kernel matches the EXIF definition pixel by pixel (large enough for several tiles)")
    func orientationKernel() {
        let big = TransformSamples.numbered(width: 131, height: 70)
        let (w, h) = (131, 70)
        for orientation in ImageOrientation.allCases {
            let out = big.oriented(orientation)
            var ok = true
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let (sx, sy): (Int, Int)
                    switch orientation {
                    case .up: (sx, sy) = (x, y)
                    case .upMirrored: (sx, sy) = (w - 1 - x, y)
                    case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                    case .downMirrored: (sx, sy) = (x, h - 1 - y)
                    case .leftMirrored: (sx, sy) = (y, x)
                    case .right: (sx, sy) = (y, h - 1 - x)
                    case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                    case .left: (sx, sy) = (w - 1 - y, x)
                    }
                    if out[x, y] != big[sx, sy] { ok = false }
                }
            }
            #expect(ok, "\(orientation)")
        }
    }

    @Test("Flips and turns apply to the displayed image: an EXIF-rotated image comes out upright")
    func displayedOrientation() throws {
        let stored = Image(pixels: pixels, orientation: .right)
        let upright = pixels.oriented(.right)
        let flipped = try FlipTransformer(horizontal: true).transform(stored)
        #expect(flipped.orientation == .up)
        #expect(flipped.pixels == upright.oriented(.upMirrored))
        let turned = try RotateTransformer(degrees: 90).transform(stored)
        #expect(turned.pixels == upright.oriented(.right))
    }

    @Test("Bilinear rotation at a quarter angle gives the exact result; fit grows the canvas, keep does not")
    func bilinearQuarter() throws {
        let source = TransformSamples.random(width: 9, height: 6, seed: 1).premultiplied()
        let exact = source.oriented(.right)
        #expect(source.rotatedBilinear(degrees: 90, canvas: PixelSize(width: 6, height: 9)) == exact)
        let tilted = try RotateTransformer(degrees: 30).transform(Image(pixels: pixels))
        // 7×5 at 30°: 7·cos + 5·sin = 8.56, 7·sin + 5·cos = 7.83.
        #expect(tilted.pixelSize == PixelSize(width: 9, height: 8))
        #expect(tilted.pixels[0, 0].a == 0)
        #expect(tilted.hasAlpha)
        let kept = try RotateTransformer(degrees: 30, fitsSize: false).transform(Image(pixels: pixels))
        #expect(kept.pixelSize == pixels.size)
        let keptQuarter = try RotateTransformer(degrees: 90, fitsSize: false).transform(Image(pixels: pixels))
        #expect(keptQuarter.pixelSize == pixels.size)
        #expect(keptQuarter.pixels[3, 2] == pixels.oriented(.right)[2, 3])
    }

    @Test("Bilinear rotation matches a slow reference within two levels (fixed-point stepping)", arguments: [17.0, 45, 123.4, 300])
    func bilinearReference(degrees: Double) throws {
        let source = TransformSamples.random(width: 40, height: 30, seed: 7, alpha: true).premultiplied()
        let canvas = RotateTransformer.boundingSize(of: source.size, degrees: degrees)
        let fast = source.rotatedBilinear(degrees: degrees, canvas: canvas)
        let reference = Self.referenceRotation(source, degrees: degrees, canvas: canvas)
        #expect(TransformSamples.maxDifference(fast, reference) <= 2)
        #expect(TransformSamples.meanDifference(fast, reference) < 0.1)
    }

    @Test("Rotation of a translucent straight image returns straight pixels; bad angles are typed errors")
    func alphaAndErrors() throws {
        let straight = Image(pixels: TransformSamples.random(width: 10, height: 10, seed: 3, alpha: true))
        #expect(try RotateTransformer(degrees: 10).transform(straight).pixels.alphaMode == .straight)
        #expect(throws: WebImageError.self) { try RotateTransformer(degrees: .nan).transform(straight) }
        let huge = Image(pixels: PixelBuffer(width: 10, height: 10, alphaMode: .straight))
        #expect(throws: WebImageError.self) { try RotateTransformer(degrees: 45, maxPixelCount: 50).transform(huge) }
    }

    /// A direct bilinear rotation in floating point: for each output centre, the clockwise
    /// inverse-mapped source point, its four neighbours (transparent outside) blended.
    static func referenceRotation(_ source: PixelBuffer, degrees: Double, canvas: PixelSize) -> PixelBuffer {
        let t = degrees * .pi / 180
        var out = PixelBuffer(width: canvas.width, height: canvas.height, alphaMode: .premultiplied)
        func sample(_ x: Int, _ y: Int, _ c: Int) -> Double {
            guard x >= 0, y >= 0, x < source.width, y < source.height else { return 0 }
            return Double(source.bytes[(y * source.width + x) * 4 + c])
        }
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let dx = Double(x) + 0.5 - Double(canvas.width) / 2
                let dy = Double(y) + 0.5 - Double(canvas.height) / 2
                let sx = cos(t) * dx + sin(t) * dy + Double(source.width) / 2 - 0.5
                let sy = -sin(t) * dx + cos(t) * dy + Double(source.height) / 2 - 0.5
                let (x0, y0) = (Int(sx.rounded(.down)), Int(sy.rounded(.down)))
                // The kernel's 8-bit weights.
                let fx = (sx - Double(x0)) * 256
                let fy = (sy - Double(y0)) * 256
                let (ax, ay) = (fx.rounded(.down) / 256, fy.rounded(.down) / 256)
                for c in 0..<4 {
                    let v = sample(x0, y0, c) * (1 - ax) * (1 - ay) + sample(x0 + 1, y0, c) * ax * (1 - ay)
                        + sample(x0, y0 + 1, c) * (1 - ax) * ay + sample(x0 + 1, y0 + 1, c) * ax * ay
                    out.bytes[(y * canvas.width + x) * 4 + c] = UInt8(min(255, max(0, v.rounded())))
                }
            }
        }
        return out
    }
}
