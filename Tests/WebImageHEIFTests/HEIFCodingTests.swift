import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageHEIF

/// HEIC fixtures come from our own encoder (libheif with x265, installed with libheif-dev on
/// Debian 12); without an HEVC encoder only the `unsupported` error is checked.
@Suite struct HEIFCodingTests {
    let coder = HEIFCoder()

    static func encode(
        _ pixels: PixelBuffer, quality: Double = 0.9, thumbnailSide: Int? = nil, orientation: ImageOrientation = .up
    ) throws -> Data {
        try HEIFEncoder.encode(
            pixels, options: ImageEncodingOptions(quality: quality, speed: 10), thumbnailSide: thumbnailSide,
            orientation: orientation)
    }

    @Test func encodesWhenAnHEVCEncoderExistsElseSaysUnsupported() throws {
        let image = Image(pixels: ImageFixtures.gradient(width: 64, height: 48))
        guard HEIFCoder.canEncodeHEIC else {
            let error = try #require(throws: WebImageError.self) { try coder.encode(image, as: .heic, options: .init()) }
            #expect(error.code == .unsupportedFormat)
            return
        }
        let data = try coder.encode(image, as: .heic, options: ImageEncodingOptions(quality: 0.9))
        #expect(ImageFormat.detect(in: data) == .heic)
        #expect(coder.canDecode(data))
        let decoded = try coder.decode(data)
        #expect(decoded.format == .heic)
        #expect(decoded.pixelSize == PixelSize(width: 64, height: 48))
        #expect(decoded.orientation == .up)
        #expect(decoded.hasAlpha == false)
        #expect(decoded.pixels.isOpaque)
        #expect(ImageFixtures.meanAbsoluteDifference(decoded.pixels, image.pixels) < 4)
    }

    @Test(.enabled(if: HEIFCoder.canEncodeHEIC)) func qualityChangesTheSize() throws {
        let pixels = ImageFixtures.gradient(width: 96, height: 64)
        #expect(try Self.encode(pixels, quality: 0.2).count < (try Self.encode(pixels, quality: 0.95)).count)
    }

    @Test(.enabled(if: HEIFCoder.canEncodeHEIC)) func losslessIsNearlyExact() throws {
        let pixels = ImageFixtures.gradient(width: 48, height: 32)
        let data = try coder.encode(Image(pixels: pixels), as: .heic, options: ImageEncodingOptions(lossless: true, speed: 10))
        let decoded = try coder.decode(data)
        // Only the RGB → YCbCr → RGB rounding remains.
        #expect(ImageFixtures.maxAbsoluteDifference(decoded.pixels, pixels) <= 3)
        let lossy = try coder.decode(try Self.encode(pixels, quality: 0.5))
        let lossyError = ImageFixtures.meanAbsoluteDifference(lossy.pixels, pixels)
        #expect(ImageFixtures.meanAbsoluteDifference(decoded.pixels, pixels) < lossyError)
    }

    @Test(.enabled(if: HEIFCoder.canEncodeHEIC)) func alphaSurvives() throws {
        let pixels = ImageFixtures.translucentGradient(width: 48, height: 16)
        let image = try coder.decode(try Self.encode(pixels, quality: 0.95))
        #expect(image.hasAlpha)
        let alpha = { (p: PixelBuffer) in stride(from: 3, to: p.bytes.count, by: 4).map { Int(p.bytes[$0]) } }
        let worst = zip(alpha(image.pixels), alpha(pixels)).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= 12)
    }

    /// libheif applies `irot`/`imir` while decoding: the pixels come out displayed once, and the
    /// orientation says `.up` so that nothing rotates them a second time.
    @Test(.enabled(if: HEIFCoder.canEncodeHEIC), arguments: [ImageOrientation.right, .left, .upMirrored, .leftMirrored])
    func containerTransformsAreAppliedOnce(orientation: ImageOrientation) throws {
        let stored = ImageFixtures.gradient(width: 64, height: 32)
        let data = try Self.encode(stored, quality: 0.95, orientation: orientation)
        let image = try coder.decode(data)
        let displayed = stored.oriented(orientation)
        #expect(image.orientation == .up)
        #expect(image.pixelSize == displayed.size)
        #expect(ImageFixtures.meanAbsoluteDifference(image.pixels, displayed) < 4)
        let header = try coder.readHeader(data)
        #expect(header.pixelSize == displayed.size)
        #expect(header.orientation == .up)
    }

    @Test(.enabled(if: HEIFCoder.canEncodeHEIC)) func embeddedThumbnailServesSmallDecodes() throws {
        let pixels = ImageFixtures.gradient(width: 256, height: 128)
        let data = try HEIFCoder(embeddedThumbnailSide: 64).encode(
            Image(pixels: pixels), as: .heic, options: ImageEncodingOptions(quality: 0.9, speed: 10))
        try data.withUnsafeBytes { bytes in
            let primary = try HEIFContext(bytes: bytes).primaryImage()
            let thumbnails = primary.thumbnails()
            #expect(thumbnails.map(\.size) == [PixelSize(width: 64, height: 32)])
            let chosen = HEIFCoder.thumbnail(of: primary, atLeast: PixelSize(width: 40, height: 20))
            #expect(chosen?.size == PixelSize(width: 64, height: 32))
            #expect(HEIFCoder.thumbnail(of: primary, atLeast: PixelSize(width: 100, height: 50)) == nil)
        }
        let small = try coder.decode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 40, height: 40)))
        #expect(small.pixelSize == PixelSize(width: 40, height: 20))
        #expect(small.originalPixelSize == PixelSize(width: 256, height: 128))
        #expect(ImageFixtures.meanAbsoluteDifference(small.pixels, Resampler.resample(pixels, to: small.pixelSize)) < 5)
        // Larger than the thumbnail: decoded from the primary image.
        let large = try coder.decode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 128, height: 128)))
        #expect(large.pixelSize == PixelSize(width: 128, height: 64))
        #expect(ImageFixtures.meanAbsoluteDifference(large.pixels, Resampler.resample(pixels, to: large.pixelSize)) < 4)
    }

    @Test(.enabled(if: HEIFCoder.canEncodeHEIC)) func headerAgreesWithTheDecode() throws {
        let data = try Self.encode(ImageFixtures.translucentGradient(width: 40, height: 30))
        let header = try coder.readHeader(data)
        let image = try coder.decode(data)
        #expect(header == ImageHeader(format: .heic, pixelSize: image.pixelSize, hasAlpha: true, orientation: .up))
    }

    @Test(.enabled(if: HEIFCoder.canEncodeHEIC)) func sizeOverTheLimitIsTooLargeBeforeDecoding() throws {
        let data = try Self.encode(ImageFixtures.gradient(width: 20, height: 10))
        let error = try #require(throws: WebImageError.self) {
            try coder.decode(data, options: ImageDecodingOptions(maxPixelCount: 199))
        }
        #expect(error.code == .tooLarge)
        #expect(try coder.decode(data, options: ImageDecodingOptions(maxPixelCount: 200)).pixelSize.pixelCount == 200)
    }

    @Test func otherFormatsAreRefused() throws {
        let error = try #require(throws: WebImageError.self) {
            try coder.encode(Image(pixels: ImageFixtures.gradient(width: 4, height: 4)), as: .avif, options: .init())
        }
        #expect(error.code == .unsupportedFormat)
        #expect(coder.canEncode(.heic) && coder.canEncode(.heif) && !coder.canEncode(.avif))
    }
}
