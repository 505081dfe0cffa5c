import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageGIF

@Suite("GIF: incremental decoding")
struct GIFIncrementalTests {
    @Test func aTrickledGIFShowsEachFrameOnceItIsComplete() throws {
        let data = try GIFTestFiles.disposals()
        let oneShot = try GIFCoder().decode(data)
        let animation = try #require(oneShot.animation)
        for chunks in [data.map { Data([$0]) }, ProgressiveFixtures.randomChunks(data, maximum: 9)] {
            let decoder = GIFCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
            let images = try ProgressiveFixtures.feed(chunks, to: decoder)
            #expect(decoder.isComplete)
            #expect(images.count == animation.frameCount)
            for (index, image) in images.enumerated() {
                #expect(image.pixels == (try animation.frame(at: index)).pixels, "frame \(index)")
            }
        }
    }

    @Test func aTrickledGIFCarriesItsColourProfileFromTheFirstImage() throws {
        let image = Image(pixels: ImageFixtures.gradient(width: 24, height: 16), colorProfile: TestColorProfiles.adobeRGB)
        let data = try GIFCoder().encode(image, as: .gif, options: ImageEncodingOptions())
        for policy in [ColorPolicy.keep, .ignore] {
            var options = ImageDecodingOptions()
            options.colorPolicy = policy
            let decoder = GIFCoder().makeIncrementalDecoder(options: options)
            let images = try ProgressiveFixtures.feed(ProgressiveFixtures.randomChunks(data, maximum: 64), to: decoder)
            #expect(!images.isEmpty)
            for shown in images {
                #expect(shown.colorProfile == (policy == .keep ? TestColorProfiles.adobeRGB : nil))
            }
        }
    }

    @Test func theFirstFrameShowsItsRowsWhileItArrivesThenEachFrameOnce() throws {
        let data = try GIFCoder().encode(ImageFixtures.animation(frames: 4), as: .gif, options: ImageEncodingOptions())
        let decoder = GIFCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        let images = try ProgressiveFixtures.feed(data.map { Data([$0]) }, to: decoder)
        #expect(decoder.isComplete)
        // Rows of frame 0 first (the square's rows, then the rest), then one image per frame.
        #expect(images.count > 4)
        for (index, image) in images.suffix(4).enumerated() {
            #expect(image.pixels == ImageFixtures.movingSquare(index: index), "frame \(index)")
        }
        let firstRows = images[0].pixels
        #expect(firstRows.size == PixelSize(width: 32, height: 32))
        #expect(firstRows[0, 0] == ImageFixtures.movingSquare(index: 0)[0, 0])
        #expect(firstRows != ImageFixtures.movingSquare(index: 0))
    }

    @Test func aTruncatedFirstFrameShowsTheRowsThatArrived() throws {
        let pixels = ProgressiveFixtures.texture(width: 40, height: 40)
        let data = try GIFCoder().encode(Image(pixels: pixels), as: .gif, options: ImageEncodingOptions())
        let final = try GIFCoder().decode(data).pixels
        let decoder = GIFCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        try decoder.append(data.prefix(data.count / 2))
        let partial = try #require(try decoder.currentImage()).pixels
        #expect(!decoder.isComplete)
        #expect(Array(partial.bytes.prefix(40 * 4 * 2)) == Array(final.bytes.prefix(40 * 4 * 2)))
        #expect(partial != final)
        try decoder.append(data.dropFirst(data.count / 2))
        #expect(try decoder.currentImage()?.pixels == final)
    }

    @Test func firstFrameOnlyStopsAfterTheFirstFrame() throws {
        let data = try GIFCoder().encode(ImageFixtures.animation(frames: 4), as: .gif, options: ImageEncodingOptions())
        var options = ImageDecodingOptions()
        options.firstFrameOnly = true
        let decoder = GIFCoder().makeIncrementalDecoder(options: options)
        let images = try ProgressiveFixtures.feed(ProgressiveFixtures.randomChunks(data, maximum: 50), to: decoder)
        #expect(decoder.isComplete)
        #expect(images.last?.pixels == ImageFixtures.movingSquare(index: 0))
    }

    @Test func thePixelLimitIsCheckedFromTheHeader() throws {
        let decoder = GIFCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        let error = #expect(throws: WebImageError.self) { try decoder.append(DecompressionBombs.gifCanvas().prefix(13)) }
        #expect(error?.code == .tooLarge)
    }

    @Test func aBadSignatureIsATypedError() throws {
        let decoder = GIFCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        let error = #expect(throws: WebImageError.self) { try decoder.append(Data("GIF00a--------------".utf8)) }
        #expect(error?.code == .badImageData)
    }
}
