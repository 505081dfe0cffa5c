import Foundation
import Testing
import WebImage
import WebImageJPEG
import WebImageTesting

@Suite("JPEG limits")
struct JPEGLimitTests {
    @Test("A JPEG declaring 65000×65000 is tooLarge after its header, and its header can be probed")
    func hugeHeader() throws {
        let bomb = DecompressionBombs.jpeg()
        let error = try #require(throws: WebImageError.self) { try JPEGCoder().decode(bomb) }
        #expect(error.code == .tooLarge)
        let header = try JPEGCoder().readHeader(bomb)
        #expect(header.pixelSize == PixelSize(width: 65_000, height: 65_000))
        #expect(header.format == .jpeg)
        #expect(header.hasAlpha == false)
    }
}
