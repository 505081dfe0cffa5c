import Foundation
import Testing
import WebImage
import WebImageSVG

@Suite struct SVGRenderingTests {
    let coder = SVGCoder()

    static func svg(_ attributes: String, _ body: String = "<rect width=\"100%\" height=\"100%\" fill=\"#ff0000\"/>") -> Data {
        Data("<svg xmlns=\"http://www.w3.org/2000/svg\" \(attributes)>\(body)</svg>".utf8)
    }

    @Test func rendersAtTheIntrinsicSize() throws {
        let image = try coder.decode(Self.svg("width=\"40\" height=\"20\""))
        #expect(image.format == .svg)
        #expect(image.pixelSize == PixelSize(width: 40, height: 20))
        #expect(image.pixels[0, 0] == RGBA8(r: 255, g: 0, b: 0))
        #expect(image.pixels[39, 19] == RGBA8(r: 255, g: 0, b: 0))
        #expect(!image.hasAlpha)
        #expect(try coder.readHeader(Self.svg("width=\"40\" height=\"20\"")).pixelSize == image.pixelSize)
    }

    @Test func sizeComesFromUnitsThenTheViewBoxThenTheDefault() throws {
        #expect(try coder.decode(Self.svg("width=\"1in\" height=\"0.5in\"")).pixelSize == PixelSize(width: 96, height: 48))
        #expect(try coder.decode(Self.svg("viewBox=\"0 0 100 50\"")).pixelSize == PixelSize(width: 100, height: 50))
        #expect(
            try coder.decode(Self.svg("width=\"100%\" height=\"100%\" viewBox=\"0 0 30 60\"")).pixelSize
                == PixelSize(width: 30, height: 60))
        #expect(try coder.decode(Self.svg("")).pixelSize == PixelSize(width: 300, height: 150))
        #expect(try coder.readHeader(Self.svg("")).pixelSize == PixelSize(width: 300, height: 150))
    }

    @Test func thumbnailBoxesScaleUpAndDown() throws {
        let data = Self.svg("viewBox=\"0 0 100 50\"", "<rect width=\"50\" height=\"50\" fill=\"#00ff00\"/>")
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 400, height: 400)
        let large = try coder.decode(data, options: options)
        #expect(large.pixelSize == PixelSize(width: 400, height: 200))
        #expect(large.originalPixelSize == PixelSize(width: 100, height: 50))
        #expect(large.pixels[100, 100] == RGBA8(r: 0, g: 255, b: 0))
        #expect(large.pixels[300, 100].a == 0)
        options.thumbnailPixelSize = PixelSize(width: 10, height: 10)
        #expect(try coder.decode(data, options: options).pixelSize == PixelSize(width: 10, height: 5))
        options.preserveAspectRatio = false
        let stretched = try coder.decode(data, options: options)
        #expect(stretched.pixelSize == PixelSize(width: 10, height: 10))
        #expect(stretched.pixels[2, 8] == RGBA8(r: 0, g: 255, b: 0))
        #expect(stretched.pixels[8, 8].a == 0)
    }

    @Test func pixelLimitAndScaleDownLimitShrinkTheRender() throws {
        let data = Self.svg("width=\"1000\" height=\"500\"")
        let capped = try coder.decode(data, options: ImageDecodingOptions(maxPixelCount: 20_000))
        #expect(capped.pixelSize == PixelSize(width: 200, height: 100))
        #expect(capped.pixels[199, 99] == RGBA8(r: 255, g: 0, b: 0))
        let scaled = try coder.decode(data, options: ImageDecodingOptions(scaleDownLimitBytes: 4 * 5_000))
        #expect(scaled.pixelSize.pixelCount <= 5_000)
        // An absurd declared size is rendered within the limit, never allocated as declared.
        let huge = try coder.decode(Self.svg("width=\"4000000\" height=\"4000000\""), options: .init(maxPixelCount: 10_000))
        #expect(huge.pixelSize == PixelSize(width: 100, height: 100))
    }

    @Test func translucencyComesOutStraightByDefault() throws {
        let data = Self.svg("width=\"4\" height=\"4\"", "<rect width=\"4\" height=\"4\" fill=\"#ff0000\" fill-opacity=\"0.5\"/>")
        let straight = try coder.decode(data).pixels[1, 1]
        #expect(straight.a >= 127 && straight.a <= 128)
        #expect(straight.r == 255 && straight.g == 0 && straight.b == 0)
        let premultiplied = try coder.decode(data, options: ImageDecodingOptions(alphaMode: .premultiplied))
        #expect(premultiplied.pixels.alphaMode == .premultiplied)
        #expect(premultiplied.pixels[1, 1].r == premultiplied.pixels[1, 1].a)
        #expect(try coder.decode(data).hasAlpha)
    }

    @Test func channelOrderIsRGBA() throws {
        let data = Self.svg(
            "width=\"3\" height=\"1\"",
            "<rect x=\"0\" width=\"1\" height=\"1\" fill=\"#ff0000\"/><rect x=\"1\" width=\"1\" height=\"1\" fill=\"#00ff00\"/>"
                + "<rect x=\"2\" width=\"1\" height=\"1\" fill=\"#0000ff\"/>")
        let pixels = try coder.decode(data).pixels
        #expect(pixels[0, 0] == RGBA8(r: 255, g: 0, b: 0))
        #expect(pixels[1, 0] == RGBA8(r: 0, g: 255, b: 0))
        #expect(pixels[2, 0] == RGBA8(r: 0, g: 0, b: 255))
    }

    @Test func dataURLImagesStillRender() throws {
        // data: URLs are the one kind of reference librsvg loads from a document without a base file.
        let inner = "<svg xmlns='http://www.w3.org/2000/svg' width='1' height='1'><rect width='1' height='1' fill='#0000ff'/></svg>"
        let encoded = Data(inner.utf8).base64EncodedString()
        let data = Self.svg(
            "xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"8\" height=\"8\"",
            "<image width=\"8\" height=\"8\" xlink:href=\"data:image/svg+xml;base64,\(encoded)\"/>")
        #expect(try coder.decode(data).pixels[4, 4] == RGBA8(r: 0, g: 0, b: 255))
    }

    @Test func encodingIsUnsupported() throws {
        #expect(!coder.canEncode(.svg))
        let error = try #require(throws: WebImageError.self) {
            try coder.encode(try coder.decode(Self.svg("width=\"2\" height=\"2\"")), as: .svg, options: .init())
        }
        #expect(error.code == .unsupportedFormat)
    }
}
