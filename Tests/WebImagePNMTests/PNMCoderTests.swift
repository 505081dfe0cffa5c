import Foundation
import Testing
import WebImageCodecs
import WebImagePNM
import WebImageTesting

/// `PNMCoder` writes what djpeg writes (P6, P5) and PAM for alpha, and reads the three back.
@Suite("Netpbm maps (PPM, PGM, PAM)")
struct PNMCoderTests {
    /// A real JPEG of a gradient, decoded by libjpeg-turbo: the pixels a PPM of it must hold.
    static func decodedJPEG() throws -> Image {
        let coders = ImageCodersManager.standard()
        let jpeg = try coders.encode(Image(pixels: ImageFixtures.gradient(width: 67, height: 41)), as: .jpeg, options: ImageEncodingOptions())
        return try coders.decode(jpeg)
    }

    /// The header's text and the bytes after it.
    static func split(_ data: Data, headerLines: Int) throws -> (header: String, raster: [UInt8]) {
        var newlines = 0
        let end = try #require(data.firstIndex { byte in
            if byte == 0x0A { newlines += 1 }
            return newlines == headerLines
        })
        return (String(decoding: data[..<end], as: UTF8.self), [UInt8](data[(end + 1)...]))
    }

    @Test("a decoded JPEG as P6: djpeg's header and the decode's RGB bytes, read back exactly")
    func pixmapOfAJPEG() throws {
        let image = try Self.decodedJPEG()
        let ppm = try PNMCoder().encode(image, as: .ppm, options: ImageEncodingOptions())
        let (header, raster) = try Self.split(ppm, headerLines: 3)
        #expect(header == "P6\n67 41\n255")
        let rgb = stride(from: 0, to: image.pixels.bytes.count, by: 4).flatMap { image.pixels.bytes[$0..<($0 + 3)] }
        #expect(raster == rgb)
        #expect(ImageFormat.detect(in: ppm) == .ppm)
        let back = try PNMCoder().decode(ppm)
        #expect(back.format == .ppm)
        #expect(back.pixels == image.pixels)
        #expect(!back.hasAlpha)
    }

    @Test("P5 holds BT.601 luma and reads back grey")
    func greymap() throws {
        let pixels = PixelBuffer(width: 2, height: 1, alphaMode: .straight) { out in
            _ = out.initialize(from: [255, 0, 0, 255, 10, 200, 30, 255])
        }
        let pgm = try PNMCoder().encode(Image(pixels: pixels), as: .pgm, options: ImageEncodingOptions())
        #expect(pgm == Data("P5\n2 1\n255\n".utf8) + [76, 124])  // 0.299·255; 0.299·10 + 0.587·200 + 0.114·30
        let back = try PNMCoder().decode(pgm)
        #expect(back.format == .pgm)
        #expect(back.pixels[0, 0] == RGBA8(r: 76, g: 76, b: 76))
        #expect(back.pixels[1, 0] == RGBA8(r: 124, g: 124, b: 124))
    }

    @Test("alpha goes to P7 RGB_ALPHA and round-trips exactly; PPM flattens it over the background")
    func alpha() throws {
        let pixels = ImageFixtures.translucentGradient(width: 9, height: 5)
        let image = Image(pixels: pixels)
        let pam = try PNMCoder().encode(image, as: .pam, options: ImageEncodingOptions())
        let (header, raster) = try Self.split(pam, headerLines: 7)
        #expect(header == "P7\nWIDTH 9\nHEIGHT 5\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR")
        #expect(raster == pixels.bytes)
        let back = try PNMCoder().decode(pam)
        #expect(back.format == .pam && back.hasAlpha)
        #expect(back.pixels == pixels)

        var options = ImageEncodingOptions()
        options.backgroundColor = RGBA8(r: 0, g: 0, b: 255)
        let ppm = try PNMCoder().decode(try PNMCoder().encode(image, as: .ppm, options: options))
        #expect(ppm.pixels == pixels.flattened(over: options.backgroundColor))
    }

    @Test(".pnm picks PAM for alpha, PGM for grey pixels, PPM otherwise")
    func anymapChoosesByPixels() throws {
        let coder = PNMCoder()
        let translucent = Image(pixels: ImageFixtures.translucentGradient(width: 4, height: 4))
        let colour = Image(pixels: ImageFixtures.gradient(width: 4, height: 4))
        let grey = Image(pixels: PixelBuffer(width: 3, height: 2, alphaMode: .straight, fill: RGBA8(r: 90, g: 90, b: 90)))
        #expect(ImageFormat.detect(in: try coder.encode(translucent, as: .pnm, options: ImageEncodingOptions())) == .pam)
        #expect(ImageFormat.detect(in: try coder.encode(colour, as: .pnm, options: ImageEncodingOptions())) == .ppm)
        let pgm = try coder.encode(grey, as: .pnm, options: ImageEncodingOptions())
        #expect(pgm == Data("P5\n3 2\n255\n".utf8) + [UInt8](repeating: 90, count: 6))
        #expect(ImageFormat(fileExtension: "PNM") == .pnm && ImageFormat.pnm.mimeType == "image/x-portable-anymap")
    }

    @Test("headers with comments, other maximum values and opaque PAM depths are read")
    func readsOtherHeaders() throws {
        let commented = try PNMCoder().decode(Data("P6 # a comment\n2 # width above\n1\n15\n".utf8) + [15, 0, 5, 0, 15, 10])
        #expect(commented.pixels[0, 0] == RGBA8(r: 255, g: 0, b: 85))
        #expect(commented.pixels[1, 0] == RGBA8(r: 0, g: 255, b: 170))
        let greyAlpha = try PNMCoder().decode(
            Data("P7\n# made by hand\nWIDTH 1\nHEIGHT 2\nDEPTH 2\nMAXVAL 255\nTUPLTYPE GRAYSCALE_ALPHA\nENDHDR\n".utf8) + [7, 128, 9, 255])
        #expect(greyAlpha.pixels[0, 0] == RGBA8(r: 7, g: 7, b: 7, a: 128))
        #expect(greyAlpha.pixels[0, 1] == RGBA8(r: 9, g: 9, b: 9, a: 255))
        let header = try PNMCoder().readHeader(Data("P5\n640 480\n255\n".utf8))
        #expect(header.format == .pgm && header.pixelSize == PixelSize(width: 640, height: 480) && header.hasAlpha == false)
        var thumbnail = ImageDecodingOptions()
        thumbnail.thumbnailPixelSize = PixelSize(width: 1, height: 1)
        #expect(try PNMCoder().decode(Data("P5\n2 2\n255\n".utf8) + [0, 0, 0, 0], options: thumbnail).pixelSize == PixelSize(width: 1, height: 1))
    }

    @Test(
        "bad maps are typed errors before any pixel memory",
        arguments: [
            ("P6\n2 2\n255\n" + "abc", WebImageError.Code.badImageData),  // 3 of 12 raster bytes
            ("P6\n2 2\n255", .badImageData),  // no whitespace before the raster
            ("P5\n1 1\n9\n\u{0A}", .badImageData),  // the sample 10 above the maximum 9
            ("P5\n1 1\n0\n\0", .badImageData),
            ("P5\n1234567890 1\n255\n", .badImageData),  // ten digits
            ("P5\n0 1\n255\n", .badImageData),
            ("P5\n100000 100000\n255\n", .tooLarge),  // 10^10 pixels, never allocated
            ("P6\n1 1\n65535\n\0\0\0\0\0\0", .unsupportedFormat),  // 16-bit
            ("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 5\nMAXVAL 255\nENDHDR\n\0\0\0\0\0", .unsupportedFormat),
            ("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\n", .badImageData),  // no ENDHDR
            ("P7\nWIDTH 1\nDEPTH 3\nMAXVAL 255\nENDHDR\n\0\0\0", .badImageData),  // no HEIGHT
            ("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nBOGUS 1\nENDHDR\n\0\0\0", .badImageData),
            ("P6\n", .badImageData),
        ])
    func refusesBadMaps(text: String, code: WebImageError.Code) {
        #expect(PNMCoder().canDecode(Data(text.utf8)))
        let error = #expect(throws: WebImageError.self) { try PNMCoder().decode(Data(text.utf8)) }
        #expect(error?.code == code, "\(text.debugDescription): \(String(describing: error))")
    }

    @Test("only P5, P6 and P7 followed by whitespace are maps")
    func detection() {
        #expect(ImageFormat.detect(in: Data("P5 ".utf8)) == .pgm)
        #expect(ImageFormat.detect(in: Data("P7\n".utf8)) == .pam)
        #expect(ImageFormat.detect(in: Data("P3\n1 1\n255\n0 0 0".utf8)) == .undefined)  // ASCII maps are not read
        #expect(ImageFormat.detect(in: Data("P6x".utf8)) == .undefined)
        #expect(!PNMCoder().canDecode(Data("P4\n".utf8)))
        #expect(PNMCoder().canEncode(.pnm) && !PNMCoder().canEncode(.png))
    }
}
