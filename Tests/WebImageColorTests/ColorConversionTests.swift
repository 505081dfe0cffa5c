import Foundation
import Testing
import WebImage
import WebImageCodecs
import WebImageTesting

/// Issue 26: embedded ICC profiles are read from JPEG and PNG and converted to sRGB by default.
@Suite("Colour profiles: read, converted to sRGB, kept or ignored")
struct ColorConversionTests {
    /// The largest difference of any channel between `image`'s pixels and `reference` of the
    /// pixels of `source` (alpha must be equal).
    static func maxDifference(_ image: Image, _ source: Image, reference: ([UInt8]) -> [Double]) -> Double {
        var worst = 0.0
        let converted = image.pixels.bytes
        let original = source.pixels.bytes
        for index in stride(from: 0, to: original.count, by: 4) {
            let expected = reference(Array(original[index..<index + 3]))
            for channel in 0..<3 { worst = max(worst, abs(Double(converted[index + channel]) - expected[channel])) }
            if converted[index + 3] != original[index + 3] { return .infinity }
        }
        return worst
    }

    @Test("a Display P3 JPEG decodes to the sRGB the CIE matrices give, within 1.5 levels")
    func displayP3JPEG() throws {
        let data = try ColorFixtures.jpeg(profile: ColorFixtures.displayP3)
        let stored = try ColorFixtures.decode(data, policy: .ignore)
        let converted = try ColorFixtures.decode(data, policy: .sRGB)
        #expect(stored.colorProfile == nil)
        #expect(converted.colorProfile == nil)
        #expect(converted.pixels.bytes != stored.pixels.bytes, "P3 pixels were not converted")
        let difference = Self.maxDifference(converted, stored, reference: ColorFixtures.p3ToSRGB)
        #expect(difference <= 1.5, "max difference \(difference) levels")
    }

    @Test("a profile split over APP2 segments in any order is put together; an incomplete one is ignored")
    func multiSegmentJPEG() throws {
        let whole = try ColorFixtures.decode(try ColorFixtures.jpeg(profile: ColorFixtures.displayP3), policy: .sRGB)
        let size = ColorFixtures.displayP3.data.count
        let shuffled = try ColorFixtures.jpeg(profile: ColorFixtures.displayP3, partSize: size / 3 + 1, order: [2, 3, 1])
        #expect(try ColorFixtures.decode(shuffled, policy: .keep).colorProfile == ColorFixtures.displayP3)
        #expect(try ColorFixtures.decode(shuffled, policy: .sRGB).pixels.bytes == whole.pixels.bytes)
        // Part 2 of 3 missing, or a part given twice: no profile, pixels as stored.
        for order in [[1, 3], [1, 2, 2, 3]] {
            let broken = try ColorFixtures.jpeg(profile: ColorFixtures.displayP3, partSize: size / 3 + 1, order: order, count: 3)
            #expect(try ColorFixtures.decode(broken, policy: .keep).colorProfile == nil, "\(order)")
            #expect(
                try ColorFixtures.decode(broken, policy: .sRGB).pixels.bytes == ColorFixtures.decode(broken, policy: .ignore).pixels.bytes)
        }
    }

    @Test("keep leaves the pixels as stored and the profile on the image; ignore drops it")
    func keepAndIgnore() throws {
        let data = try ColorFixtures.jpeg(profile: ColorFixtures.displayP3)
        let kept = try ColorFixtures.decode(data, policy: .keep)
        let ignored = try ColorFixtures.decode(data, policy: .ignore)
        #expect(kept.colorProfile == ColorFixtures.displayP3)
        #expect(kept.colorProfile?.colorSpace == .rgb)
        #expect(kept.pixels.bytes == ignored.pixels.bytes)
        #expect(ignored.colorProfile == nil)
    }

    @Test("an sRGB profile is recognised: no pixel changes, no profile kept")
    func sRGBIsIdentity() throws {
        let data = try ColorFixtures.jpeg(profile: ColorFixtures.sRGB)
        let converted = try ColorFixtures.decode(data, policy: .sRGB)
        #expect(converted.colorProfile == nil)
        #expect(converted.pixels.bytes == (try ColorFixtures.decode(data, policy: .ignore)).pixels.bytes)
        #expect(try LCMSColorConverter.shared.isSRGB(ColorFixtures.sRGB))
        #expect(try !LCMSColorConverter.shared.isSRGB(ColorFixtures.displayP3))
    }

    @Test("a PNG's iCCP profile is read: P3 RGB and linear grey convert to sRGB")
    func pngProfiles() throws {
        let colours: [[Int]] = [[200, 40, 30], [20, 180, 60], [30, 60, 220], [128, 128, 128], [255, 255, 0], [0, 0, 0]]
        let rgb = ColorFixtures.png(profile: ColorFixtures.displayP3) { x, y in colours[(x / 4 + y / 4 * 4) % colours.count] }
        let stored = try ColorFixtures.decode(rgb, policy: .ignore)
        let converted = try ColorFixtures.decode(rgb, policy: .sRGB)
        #expect(try ColorFixtures.decode(rgb, policy: .keep).colorProfile == ColorFixtures.displayP3)
        let difference = Self.maxDifference(converted, stored, reference: ColorFixtures.p3ToSRGB)
        #expect(difference <= 1.5, "max difference \(difference) levels")

        // Linear grey 128 is sRGB 188 (the sRGB curve of 128/255).
        let gray = ColorFixtures.png(profile: ColorFixtures.linearGray, colorType: 0) { x, _ in [x * 17] }
        let grayImage = try ColorFixtures.decode(gray, policy: .sRGB)
        let grayDifference = Self.maxDifference(grayImage, try ColorFixtures.decode(gray, policy: .ignore)) { value in
            let encoded = ColorFixtures.encode(Double(value[0]) / 255) * 255
            return [encoded, encoded, encoded]
        }
        #expect(grayDifference <= 1.5, "max difference \(grayDifference) levels")
    }

    @Test("a profile for another colour model than the pixels', or a broken one, leaves the pixels as stored")
    func mismatchedAndBrokenProfiles() throws {
        // A grey profile on an RGB PNG, an RGB profile on a grey PNG.
        let rgbWithGray = ColorFixtures.png(profile: ColorFixtures.linearGray) { x, y in [x * 16, y * 16, 100] }
        let grayWithRGB = ColorFixtures.png(profile: ColorFixtures.displayP3, colorType: 0) { x, _ in [x * 16] }
        for data in [rgbWithGray, grayWithRGB] {
            #expect(try ColorFixtures.decode(data, policy: .keep).colorProfile == nil)
            #expect(try ColorFixtures.decode(data, policy: .sRGB).pixels.bytes == ColorFixtures.decode(data, policy: .ignore).pixels.bytes)
        }
        // A profile whose tags are garbage: the header passes, lcms2 refuses it, the image still decodes as stored.
        var garbage = [UInt8](ColorFixtures.displayP3.data)
        for index in 132..<garbage.count { garbage[index] = UInt8(truncatingIfNeeded: index &* 31) }
        let broken = try #require(ColorProfile(iccData: Data(garbage)))
        let data = try ColorFixtures.jpeg(profile: broken)
        #expect(try ColorFixtures.decode(data, policy: .sRGB).pixels.bytes == ColorFixtures.decode(data, policy: .ignore).pixels.bytes)
    }

    @Test("ColorProfile refuses what is not an ICC profile")
    func profileHeader() {
        #expect(ColorProfile(iccData: Data(count: 100)) == nil)
        var bytes = [UInt8](ColorFixtures.displayP3.data)
        bytes[36] = 0x00  // no 'acsp'
        #expect(ColorProfile(iccData: Data(bytes)) == nil)
        var long = [UInt8](ColorFixtures.displayP3.data)
        long[0] = 0x7F  // declares more than it has
        #expect(ColorProfile(iccData: Data(long)) == nil)
        let padded = ColorProfile(iccData: ColorFixtures.displayP3.data + Data(count: 7))
        #expect(padded?.data == ColorFixtures.displayP3.data)
    }
}

@Suite("Colour policy through the manager")
struct ManagerColorPolicyTests {
    @Test("a request converts to sRGB by default; keep and ignore are their own cache entries")
    func requestsChooseTheirPolicy() async throws {
        let data = try ColorFixtures.jpeg(profile: ColorFixtures.displayP3)
        let url = try #require(URL(string: "data:image/jpeg;base64," + data.base64EncodedString()))
        let coders = ImageCodersManager.standard()
        let manager = ImageManager(
            configuration: ImageManager.Configuration(
                imageCache: ImageCache(memory: [MemoryCache()], decoder: coders),
                loader: ImageLoadersManager(loaders: [DataURLImageLoader()]), coders: coders))
        let converted = try await manager.image(for: ImageRequest(url: url))
        var keeping = ImageRequest(url: url)
        keeping.decoding.colorPolicy = .keep
        let kept = try await manager.image(for: keeping)
        #expect(converted.image.colorProfile == nil)
        #expect(kept.image.colorProfile == ColorFixtures.displayP3)
        #expect(kept.image.pixels.bytes != converted.image.pixels.bytes)
        let keptKey = try #require(manager.cacheKey(for: keeping))
        #expect(keptKey != manager.cacheKey(for: ImageRequest(url: url)))
        #expect(keptKey.contains("-Color(keep)"))
        // Asked again, each comes from memory as it was made.
        let again = try await manager.image(for: ImageRequest(url: url))
        #expect(again.cacheType == .memory)
        #expect(again.image.pixels.bytes == converted.image.pixels.bytes)
    }
}

@Suite("Colour profiles written by the encoders")
struct ColorProfileEncodingTests {
    @Test("keep: JPEG, PNG, WebP, TIFF, AVIF, HEIC, JPEG XL and GIF carry the profile through a transform and back; sRGB decodes agree")
    func keptProfilesRoundTrip() throws {
        let coders = ImageCodersManager.standard()
        let source = try ColorFixtures.decode(try ColorFixtures.jpeg(profile: ColorFixtures.displayP3), policy: .keep)
        let resized = try ResizeTransformer(size: PixelSize(width: 24, height: 16), mode: .fill).transform(source)
        #expect(resized.colorProfile == ColorFixtures.displayP3, "a transform keeps the profile")
        var lossless = ImageEncodingOptions()
        lossless.lossless = true
        let heic: [ImageFormat] = HEIFCoder.canEncodeHEIC ? [.heic] : []
        for format in [ImageFormat.jpeg, .png, .webp, .tiff, .avif, .jpegXL, .gif] + heic {
            let written = try coders.encode(resized, as: format, options: format == .jpeg ? ImageEncodingOptions() : lossless)
            #expect(try coders.readHeader(written).colorProfile == ColorFixtures.displayP3, "\(format): the header reader sees it")
            let kept = try ColorFixtures.decode(written, policy: .keep)
            #expect(kept.colorProfile == ColorFixtures.displayP3, "\(format)")
            // Converted after the round trip: the P3 colours come out as sRGB.
            let stored = try ColorFixtures.decode(written, policy: .ignore)
            let converted = try ColorFixtures.decode(written, policy: .sRGB)
            let difference = ColorConversionTests.maxDifference(converted, stored, reference: ColorFixtures.p3ToSRGB)
            #expect(difference <= 1.5, "\(format): \(difference)")
        }
    }

    @Test("an encoder that writes no profile gets sRGB pixels")
    func otherFormatsAreConverted() throws {
        let coders = ImageCodersManager.standard()
        let data = try ColorFixtures.jpeg(profile: ColorFixtures.displayP3)
        let kept = try ColorFixtures.decode(data, policy: .keep)
        let sRGB = try ColorFixtures.decode(data, policy: .sRGB)
        var lossless = ImageEncodingOptions()
        lossless.lossless = true
        // Every format's encoder carries an RGB profile now; one that says it cannot gets the
        // kept P3 image as its sRGB conversion would be.
        let encoder = ProfileBlindEncoder()
        let png = try coders.encode(kept, as: .png, options: lossless, using: encoder)
        let back = try ColorFixtures.decode(png, policy: .keep)
        #expect(back.colorProfile == nil)
        let expected = try ColorFixtures.decode(try coders.encode(sRGB, as: .png, options: lossless), policy: .keep)
        #expect(back.pixels.bytes == expected.pixels.bytes)
    }

    /// The PNG encoder, saying it writes no colour profile.
    struct ProfileBlindEncoder: ImageEncoding {
        func canEncode(_ format: ImageFormat) -> Bool { format == .png }
        func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
            try PNGCoder().encode(image, as: format, options: options)
        }
    }

    @Test("HEIC under keep: the profile's bytes come back from libheif, the pixels are those of an untagged encode",
        .enabled(if: HEIFCoder.canEncodeHEIC), arguments: [ColorFixtures.displayP3, TestColorProfiles.adobeRGB])
    func heicKeepsTheProfile(profile: ColorProfile) throws {
        let coders = ImageCodersManager.standard()
        let pixels = ImageFixtures.gradient(width: 64, height: 48)
        for (source, options) in [
            (pixels, ImageEncodingOptions(quality: 0.9, speed: 10)),
            (ImageFixtures.translucentGradient(width: 64, height: 48), ImageEncodingOptions(quality: 0.9, speed: 10)),
            (pixels, ImageEncodingOptions(lossless: true, speed: 10)),
        ] {
            let tagged = try coders.encode(Image(pixels: source, colorProfile: profile), as: .heic, options: options)
            let untagged = try coders.encode(Image(pixels: source), as: .heic, options: options)
            #expect(try coders.readHeader(tagged).colorProfile?.data == profile.data)
            #expect(try coders.readHeader(untagged).colorProfile == nil)
            let kept = try ColorFixtures.decode(tagged, policy: .keep)
            #expect(kept.colorProfile == profile)
            #expect(kept.hasAlpha == !source.isOpaque)
            // Stored as given: what an untagged encode stores, within the codec's rounding.
            let before = try ColorFixtures.decode(untagged, policy: .keep)
            #expect(ImageFixtures.meanAbsoluteDifference(kept.pixels, before.pixels) < 0.5)
            #expect(ImageFixtures.meanAbsoluteDifference(kept.pixels, source) < 4)
        }
    }

    @Test("a lossy JPEG XL names the profile it was coded from; its pixels come out in sRGB")
    func lossyJPEGXL() throws {
        let coders = ImageCodersManager.standard()
        let data = try ColorFixtures.jpeg(profile: ColorFixtures.displayP3)
        let kept = try ColorFixtures.decode(data, policy: .keep)
        let sRGB = try ColorFixtures.decode(data, policy: .sRGB)
        let written = try coders.encode(kept, as: .jpegXL, options: ImageEncodingOptions(quality: 0.95))
        // libjxl stores P3 as its enumerated colour encoding and names it with an ICC profile of its own.
        let named = try #require(try coders.readHeader(written).colorProfile)
        #expect(named.colorSpace == .rgb)
        let back = try ColorFixtures.decode(written, policy: .keep)
        #expect(back.colorProfile == nil, "libjxl decodes XYB to the preferred sRGB")
        #expect(ImageFixtures.meanAbsoluteDifference(back.pixels, sRGB.pixels) < 3)
    }
}
