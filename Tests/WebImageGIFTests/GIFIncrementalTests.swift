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

    @Test func anAnimationShowsFramesAsTheyComplete() throws {
        let data = try GIFCoder().encode(ImageFixtures.animation(frames: 4), as: .gif, options: ImageEncodingOptions())
        let parts = try ProgressiveFixtures.previewParts(data, decoder: GIFCoder().makeIncrementalDecoder(options: ImageDecodingOptions()))
        #expect(parts.count == 4)
        let decoder = GIFCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        try decoder.append(parts[0])
        #expect(try decoder.currentImage()?.pixelSize == PixelSize(width: 32, height: 32))
        #expect(!decoder.isComplete)
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
