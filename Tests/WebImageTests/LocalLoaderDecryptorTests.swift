import Foundation
import Testing
import WebImage

@Suite("file:// and data: loaders apply the request's decryptor", .timeLimit(.minutes(3)))
struct LocalLoaderDecryptorTests {
    static let payload = Data((0..<500).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })

    @Test func fileLoaderDecryptsTheWholeFileAndOffersNoPartialData() async throws {
        try await FileAndDataLoaderTests.withTemporaryFile(Data(Self.payload.base64EncodedString().utf8)) { file in
            var request = ImageLoad.Request(url: file)
            request.decryptor = .base64
            request.reportsPartialData = true
            let (events, result) = try await FileAndDataLoaderTests.collect(FileImageLoader(chunkSize: 100).load(request))
            #expect(result?.data == Self.payload)
            #expect(FileAndDataLoaderTests.progress(events).allSatisfy { $0.partialData == nil })
        }
    }

    @Test func dataLoaderDecrypts() async throws {
        let text = Data(Self.payload.base64EncodedString().utf8).base64EncodedString()
        var request = ImageLoad.Request(url: URL(string: "data:text/plain;base64,\(text)")!)
        request.decryptor = .base64
        #expect(try await DataURLImageLoader().load(request).result().data == Self.payload)
    }

    @Test func aDecryptorsOwnErrorIsWrappedAsBadImageData() async throws {
        var request = ImageLoad.Request(url: URL(string: "data:,abc")!)
        request.decryptor = ImageDataDecryptor { _, _ in throw ForeignError(reason: "key") }
        do {
            _ = try await DataURLImageLoader().load(request).result()
            Issue.record("a failing decryptor loaded")
        } catch let error as WebImageError {
            #expect(error.code == .badImageData)
            #expect(error.underlying as? ForeignError == ForeignError(reason: "key"))
        }
    }
}
