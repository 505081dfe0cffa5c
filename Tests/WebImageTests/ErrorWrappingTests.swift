import Foundation
import Testing
import WebImage
import WebImageTesting

/// A third-party error type, as a custom coder or transformer would throw.
struct ForeignError: Error, Equatable {
    let reason: String
}

/// A coder that recognises everything and fails with its own error type.
struct FailingCoder: ImageCoding {
    var name: String { "exploding" }
    func canDecode(_ data: Data) -> Bool { true }
    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image { throw ForeignError(reason: "decode") }
    func canEncode(_ format: ImageFormat) -> Bool { true }
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        throw ForeignError(reason: "encode")
    }
}

/// A transformer that fails with its own error type.
struct FailingTransformer: ImageTransforming {
    var key: String { "Failing" }
    func transform(_ image: Image) throws -> Image { throw ForeignError(reason: "transform") }
}

@Suite("A custom coder's or transformer's error comes back as a WebImageError")
struct ErrorWrappingTests {
    @Test func wrappingKeepsWebImageErrorsAndMapsCancellation() {
        let typed = WebImageError(.tooLarge, "big")
        let kept = WebImageError.wrapping(typed, code: .decodingFailed, "unused")
        #expect(kept.code == .tooLarge && kept.message == "big")
        #expect(WebImageError.wrapping(CancellationError(), code: .transformFailed, "t").code == .cancelled)
        let wrapped = WebImageError.wrapping(ForeignError(reason: "x"), code: .transformFailed, "the transformer T failed")
        #expect(wrapped.code == .transformFailed && wrapped.message == "the transformer T failed")
        #expect(wrapped.underlying as? ForeignError == ForeignError(reason: "x"))
    }

    @Test func customDecoderErrorsBecomeDecodingFailedNamingTheCoder() throws {
        let manager = ImageCodersManager(coders: [FailingCoder()])
        for using in [nil, FailingCoder()] as [FailingCoder?] {
            let error = #expect(throws: WebImageError.self) { try manager.decode(Data([1, 2, 3]), options: .init(), using: using) }
            #expect(error?.code == .decodingFailed)
            #expect(error?.message.contains("exploding") == true)
            #expect(error?.underlying as? ForeignError == ForeignError(reason: "decode"))
        }
    }

    @Test func customEncoderErrorsBecomeEncodingFailedNamingTheCoder() throws {
        let manager = ImageCodersManager(coders: [FailingCoder()])
        let image = Image(pixels: ImageFixtures.gradient(width: 2, height: 2))
        let error = #expect(throws: WebImageError.self) { try manager.encode(image, as: .png, options: .init()) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.message.contains("exploding") == true)
        #expect(error?.underlying as? ForeignError == ForeignError(reason: "encode"))
    }

    @Test func aWebImageErrorFromACoderPassesThroughUnchanged() throws {
        // The built-in double throws badImageData for bytes it does not know.
        let manager = ImageCodersManager(coders: [TaggedCoder(name: "a", tag: 1)])
        let error = #expect(throws: WebImageError.self) { try manager.decode(Data([9])) }
        #expect(error?.code == .badImageData)
    }

    @Test func aFailingStepOfAChainedTransformerIsNamed() throws {
        let chain = ChainedTransformer([ResizeTransformer(size: PixelSize(width: 2, height: 2)), FailingTransformer()])
        let image = Image(pixels: ImageFixtures.gradient(width: 4, height: 4))
        let error = #expect(throws: WebImageError.self) { try chain.transform(image) }
        #expect(error?.code == .transformFailed)
        #expect(error?.message.contains("Failing") == true)
        #expect(error?.underlying as? ForeignError == ForeignError(reason: "transform"))
    }
}

@Suite("Error messages")
struct ErrorMessageTests {
    @Test func aFailedDownloadNamesItsStatusAndTypeButNotEveryHeader() throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/missing.png"))
        let response = ImageLoad.Response(
            url: url, statusCode: 404,
            headers: ["Content-Type": "text/html", "Server": "SimpleHTTP/0.6", "Date": "Thu, 26 Nov 2026 04:06:43 GMT"])
        let error = WebImageError.invalidStatus(404, response: response)
        #expect(error.description
            == "invalidDownloadStatusCode: download of http://127.0.0.1:1/missing.png answered HTTP 404 (HTTP 404, text/html)")
        #expect(error.downloadDetails?.response?.headers["Server"] == "SimpleHTTP/0.6")
        #expect(WebImageError.DownloadDetails().description == "no response")
    }
}
