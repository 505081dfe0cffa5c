import Foundation
import Testing
import WebImageKit
import WebImageTesting

@Suite("WebImageKit: the standard configuration", .timeLimit(.minutes(3)))
struct StandardConfigurationTests {
    @Test func loadsDataAndFileURLsWithEveryBuiltInCoder() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-kit-tests-\(UUID().uuidString)", isDirectory: true)
        let http = HTTPImageLoader()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let configuration = try ImageManager.Configuration.standard(
                disk: DiskCacheConfiguration(directory: directory.appendingPathComponent("cache"), sweepInterval: nil),
                http: http)
            let manager = ImageManager(configuration: configuration)
            let pixels = ImageFixtures.gradient(width: 12, height: 9)
            let webp = try ImageCodersManager.standard().encode(
                Image(pixels: pixels, format: .webp), as: .webp, options: ImageEncodingOptions(lossless: true))
            let dataURL = try #require(URL(string: "data:image/webp;base64," + webp.base64EncodedString()))
            let fromData = try await manager.image(for: ImageRequest(url: dataURL, options: [.waitStoreCache]))
            #expect(fromData.image.format == .webp)
            #expect(fromData.image.pixelSize == PixelSize(width: 12, height: 9))

            let gif = try ImageCodersManager.standard().encode(
                ImageFixtures.animation(frames: 3), as: .gif, options: ImageEncodingOptions())
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("anim.gif")
            try gif.write(to: file)
            let fromFile = try await manager.image(for: file)
            #expect(fromFile.image.format == .gif)
            #expect(fromFile.image.animation?.frameCount == 3)
            var firstFrame = ImageRequest(url: file, options: [.decodeFirstFrameOnly])
            firstFrame.thumbnailPixelSize = PixelSize(width: 16, height: 16)
            #expect(try await manager.image(for: firstFrame).image.isAnimated == false)
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }
}
