import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// Issue 26: high-bit-depth sources (16-bit PNG and TIFF, 10-bit AVIF and HEIC, 16-bit JPEG XL)
/// are converted to sRGB from their own samples, in one lcms2 transform, before they become 8-bit.
///
/// Each decode goes through a ``WideSampleRecorder`` over the standard converter, which keeps the
/// 16-bit samples the decoder hands over; the reference is lcms2 converting those samples 16 bits
/// in, 16 bits out, rounded to 8. Rounding to 8 bits first, as the decoders did before, misses it
/// by several levels in the dark gradient the files hold.
@Suite("High-bit-depth colour")
struct HighBitDepthColourTests {
    static let profiles: [(String, ColorProfile)] = [
        ("linear sRGB", TestColorProfiles.linearSRGB), ("ProPhoto", TestColorProfiles.proPhotoRGB),
    ]

    /// The five formats, each made from the 16-bit PNG carrying `profile`.
    static func file(_ format: ImageFormat, profile: ColorProfile) throws -> Data {
        let png = HighBitDepthFixtures.png(profile: profile)
        switch format {
        case .png: return png
        case .tiff: return HighBitDepthFixtures.tiff(profile: profile)
        case .avif:
            return try HighBitDepthFixtures.encoded(
                png, tool: "avifenc", ["-d", "10", "-y", "444", "-s", "10", "--min", "0", "--max", "8", "{in}", "{out}"], suffix: "avif")
        case .heic: return try HighBitDepthFixtures.encoded(png, tool: "heif-enc", ["-b", "10", "-q", "95", "-o", "{out}", "{in}"], suffix: "heic")
        default: return try HighBitDepthFixtures.encoded(png, tool: "cjxl", ["{in}", "{out}", "-d", "0", "-e", "1"], suffix: "jxl")
        }
    }

    static let formats: [ImageFormat] = [.png, .tiff, .avif, .heic, .jpegXL]

    /// `data` decoded by the standard coders with `recorder` as every coder's converter.
    static func decode(_ data: Data, recorder: WideSampleRecorder, options: ImageDecodingOptions = ImageDecodingOptions()) throws
        -> Image
    {
        let coders = ImageCodersManager(
            coders: [
                PNGCoder(colorConverter: recorder), TIFFCoder(colorConverter: recorder), AVIFCoder(colorConverter: recorder),
                HEIFCoder(colorConverter: recorder), JXLCoder(colorConverter: recorder),
            ],
            colorConverter: recorder)
        return try coders.decode(data, options: options)
    }

    @Test("each format is converted from its own samples within one level of lcms2 16-bit, and 8-bit-first misses", arguments: formats)
    func convertedAtSourcePrecision(_ format: ImageFormat) throws {
        for (name, profile) in Self.profiles {
            let data = try Self.file(format, profile: profile)
            let recorder = WideSampleRecorder(converting: LCMSColorConverter.shared)
            let image = try Self.decode(data, recorder: recorder)
            #expect(image.colorProfile == nil, "\(name) \(format)")
            let pixelCount = image.pixels.width * image.pixels.height
            let samples = try #require(recorder.samples(pixelCount: pixelCount), "\(name) \(format): no 16-bit samples handed over")
            // The samples are the source's, not 8-bit ones widened.
            #expect(samples.contains { $0 % 257 != 0 }, "\(name) \(format)")
            if format == .png || format == .tiff || format == .jpegXL {
                #expect(samples == HighBitDepthFixtures.samples(), "\(name) \(format): lossless samples differ from the file's")
            }
            let reference = try #require(ColorReference.sRGB8(rgba16: samples, profile: profile))
            let eightBitFirst = try #require(ColorReference.sRGB8AfterRounding(rgba16: samples, profile: profile))
            let error = ColorReference.maxDifference(image.pixels.bytes, reference)
            let oldError = ColorReference.maxDifference(eightBitFirst, reference)
            #expect(error <= 1, "\(name) \(format): \(error) levels from the 16-bit reference")
            #expect(oldError >= 4, "\(name) \(format): rounding to 8 bits first is only \(oldError) levels off")
            // The standard manager wires the same converter into every coder.
            let standard = try ImageCodersManager.standard().decode(data)
            #expect(standard.pixels.bytes == image.pixels.bytes, "\(name) \(format)")
        }
    }

    @Test("a tiled 16-bit TIFF is converted row of tiles by row of tiles, edge tiles cut")
    func tiledTIFF() throws {
        let profile = TestColorProfiles.proPhotoRGB
        let data = HighBitDepthFixtures.tiff(profile: profile, tile: PixelSize(width: 48, height: 32))
        let recorder = WideSampleRecorder(converting: LCMSColorConverter.shared)
        let image = try Self.decode(data, recorder: recorder)
        #expect(recorder.conversionCount == 3)
        let samples = try #require(recorder.samples(pixelCount: image.pixels.width * image.pixels.height))
        #expect(samples == HighBitDepthFixtures.samples())
        let reference = try #require(ColorReference.sRGB8(rgba16: samples, profile: profile))
        #expect(ColorReference.maxDifference(image.pixels.bytes, reference) <= 1)
        #expect(image.colorProfile == nil)
    }

    @Test("a 16-bit grey PNG, TIFF or JPEG XL with a grey profile is converted from its 16-bit levels")
    func greySources() throws {
        let profile = TestColorProfiles.linearGray
        let png = HighBitDepthFixtures.greyPNG(profile: profile)
        let jxl = try HighBitDepthFixtures.encoded(png, tool: "cjxl", ["{in}", "{out}", "-d", "0", "-e", "1"], suffix: "jxl")
        let tiff = HighBitDepthFixtures.tiff(profile: profile, grey: true)
        for data in [png, jxl, tiff] {
            let recorder = WideSampleRecorder(converting: LCMSColorConverter.shared)
            let image = try Self.decode(data, recorder: recorder)
            #expect(image.colorProfile == nil)
            let samples = try #require(recorder.samples(pixelCount: image.pixels.width * image.pixels.height))
            let colour = HighBitDepthFixtures.samples()
            let grey = colour.indices.map { index -> UInt16 in index % 4 == 3 ? 65535 : colour[index / 4 * 4] }
            #expect(samples == grey)
            let reference = try #require(ColorReference.sRGB8(rgba16: samples, profile: profile))
            let eightBitFirst = try #require(ColorReference.sRGB8AfterRounding(rgba16: samples, profile: profile))
            #expect(ColorReference.maxDifference(image.pixels.bytes, reference) <= 1)
            #expect(ColorReference.maxDifference(eightBitFirst, reference) >= 4)
        }
    }

    @Test("alpha is carried from 16 bits, straight or premultiplied as asked")
    func alphaCarried() throws {
        let profile = TestColorProfiles.linearSRGB
        let data = HighBitDepthFixtures.png(profile: profile, alpha: true)
        let recorder = WideSampleRecorder(converting: LCMSColorConverter.shared)
        let image = try Self.decode(data, recorder: recorder)
        #expect(HighBitDepthFixtures.samples(alpha: true) == recorder.samples(pixelCount: image.pixels.width * image.pixels.height))
        let reference = try #require(ColorReference.sRGB8(rgba16: HighBitDepthFixtures.samples(alpha: true), profile: profile))
        #expect(ColorReference.maxDifference(image.pixels.bytes, reference) <= 1)
        var options = ImageDecodingOptions()
        options.alphaMode = .premultiplied
        let premultiplied = try Self.decode(data, recorder: recorder, options: options)
        #expect(premultiplied.pixels.alphaMode == .premultiplied)
        #expect(premultiplied.pixels.bytes == image.pixels.premultiplied().bytes)
    }

    @Test("keep, ignore, sRGB profiles and 8-bit sources take the 8-bit path")
    func eightBitPathUnchanged() throws {
        let recorder = WideSampleRecorder(converting: LCMSColorConverter.shared)
        let wide = HighBitDepthFixtures.png(profile: TestColorProfiles.linearSRGB)
        for policy in [ColorPolicy.keep, .ignore] {
            var options = ImageDecodingOptions()
            options.colorPolicy = policy
            let image = try Self.decode(wide, recorder: recorder, options: options)
            #expect(image.colorProfile == (policy == .keep ? TestColorProfiles.linearSRGB : nil))
            // As stored: the high byte of each 16-bit sample.
            #expect(image.pixels[63, 79].r == UInt8((63 * 40 + 79 * 3) >> 8))
        }
        _ = try Self.decode(HighBitDepthFixtures.png(profile: TestColorProfiles.sRGB), recorder: recorder)
        _ = try Self.decode(HighBitDepthFixtures.tiff(profile: TestColorProfiles.sRGB), recorder: recorder)
        let eightBit = ImageFixtures.gradient(width: 16, height: 16)
        let png8 = try PNGCoder().encode(
            Image(pixels: eightBit, format: .png, colorProfile: TestColorProfiles.linearSRGB), as: .png, options: ImageEncodingOptions())
        let converted = try Self.decode(png8, recorder: recorder)
        #expect(converted.colorProfile == nil)
        #expect(recorder.conversionCount == 0)
    }

    @Test("a thumbnail is converted at decode, then resampled")
    func thumbnail() throws {
        let profile = TestColorProfiles.linearSRGB
        for format in [ImageFormat.png, .tiff] {
            let recorder = WideSampleRecorder(converting: LCMSColorConverter.shared)
            var options = ImageDecodingOptions()
            options.thumbnailPixelSize = PixelSize(width: 32, height: 40)
            let image = try Self.decode(try Self.file(format, profile: profile), recorder: recorder, options: options)
            #expect(image.pixels.size == PixelSize(width: 32, height: 40))
            #expect(image.colorProfile == nil)
            #expect(recorder.conversionCount > 0)
        }
    }

    @Test("an interlaced PNG too large to hold at 16 bits under the pixel limit is converted after 8 bits")
    func wideBufferLimit() throws {
        let profile = TestColorProfiles.linearSRGB
        let data = HighBitDepthFixtures.png(profile: profile, interlaced: true)
        let recorder = WideSampleRecorder(converting: LCMSColorConverter.shared)
        let pixelCount = HighBitDepthFixtures.width * HighBitDepthFixtures.height
        let roomy = try Self.decode(data, recorder: recorder, options: ImageDecodingOptions(maxPixelCount: pixelCount * 2))
        #expect(recorder.conversionCount == 1)
        let reference = try #require(ColorReference.sRGB8(rgba16: HighBitDepthFixtures.samples(), profile: profile))
        #expect(ColorReference.maxDifference(roomy.pixels.bytes, reference) <= 1)

        let tight = try Self.decode(data, recorder: recorder, options: ImageDecodingOptions(maxPixelCount: pixelCount))
        #expect(recorder.conversionCount == 1, "the 16-bit image was held beyond the limit")
        #expect(tight.colorProfile == nil)
        #expect(ColorReference.maxDifference(tight.pixels.bytes, reference) > 1)
    }
}

extension HighBitDepthColourTests {
    @Test("a truncated 16-bit PNG or TIFF on the 16-bit path is a typed error")
    func truncatedSources() throws {
        let profile = TestColorProfiles.linearSRGB
        for data in [HighBitDepthFixtures.png(profile: profile), HighBitDepthFixtures.tiff(profile: profile)] {
            let recorder = WideSampleRecorder(converting: LCMSColorConverter.shared)
            let cut = data.prefix(data.count - 4000)
            let error = try #require(throws: WebImageError.self) { try Self.decode(Data(cut), recorder: recorder) }
            #expect(error.code == .decodingFailed || error.code == .badImageData, "\(error)")
        }
    }
}

extension HighBitDepthColourTests {
    @Test("8-bit AVIF and HEIC with a wide profile never ask for a 16-bit transform")
    func eightBitAVIFAndHEIC() throws {
        let profile = TestColorProfiles.linearSRGB
        let png8 = ImageFixtures.gradient(width: 32, height: 32)
        let png = try PNGCoder().encode(Image(pixels: png8, format: .png, colorProfile: profile), as: .png, options: ImageEncodingOptions())
        let avif = try HighBitDepthFixtures.encoded(png, tool: "avifenc", ["-d", "8", "-s", "10", "{in}", "{out}"], suffix: "avif")
        let heic = try HighBitDepthFixtures.encoded(png, tool: "heif-enc", ["-q", "90", "-o", "{out}", "{in}"], suffix: "heic")
        for data in [avif, heic] {
            let recorder = WideSampleRecorder(converting: LCMSColorConverter.shared)
            var keep = ImageDecodingOptions()
            keep.colorPolicy = .keep
            #expect(try Self.decode(data, recorder: recorder, options: keep).colorProfile == profile)
            let image = try Self.decode(data, recorder: recorder)
            #expect(image.colorProfile == nil)
            #expect(recorder.wideTransformRequests == 0)
        }
    }
}

extension HighBitDepthColourTests {
    @Test("a 16-bit PNG decoded as it arrives ends with the one-shot decode's pixels")
    func incrementalEndsLikeOneShot() throws {
        let coders = ImageCodersManager.standard()
        for interlaced in [false, true] {
            let data = HighBitDepthFixtures.png(profile: TestColorProfiles.linearSRGB, interlaced: interlaced)
            let decoder = coders.makeIncrementalDecoder(options: ImageDecodingOptions())
            var last: Image?
            var offset = 0
            while offset < data.count {
                let end = min(data.count, offset + 777)
                try decoder.append(data.subdata(in: offset..<end))
                if let image = try decoder.currentImage() { last = image }
                offset = end
            }
            #expect(decoder.isComplete)
            let oneShot = try coders.decode(data)
            let same = last?.pixels == oneShot.pixels
            #expect(same, "interlaced \(interlaced): the last incremental image differs from the one-shot decode")
        }
    }
}
