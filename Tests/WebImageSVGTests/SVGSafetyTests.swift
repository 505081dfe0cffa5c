import Foundation
import Testing
import WebImage
import WebImageHTTPTesting
import WebImageSVG

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct SVGSafetyTests {
    let coder = SVGCoder()

    /// Every way an SVG can name another resource, pointed at the loopback server: librsvg, given
    /// the document from memory without a base file, loads none of them.
    @Test func externalResourcesAreNeverFetched() async throws {
        let server = try await LoopbackHTTPServer.start()
        let base = server.baseURL.absoluteString
        let references = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
                 xmlns:xi="http://www.w3.org/2001/XInclude" width="16" height="16">
              <style>@import url("\(base)/import.css"); rect { fill: url("\(base)/paint.svg#p"); }</style>
              <image width="16" height="16" href="\(base)/image.png"/>
              <image width="16" height="16" xlink:href="\(base)/xlink-image.png"/>
              <use xlink:href="\(base)/use.svg#shape"/>
              <filter id="f"><feImage xlink:href="\(base)/feimage.png"/></filter>
              <rect width="16" height="16" filter="url(#f)" mask="url(\(base)/mask.svg#m)"/>
              <xi:include href="\(base)/xinclude.svg"/>
            </svg>
            """
        let prolog = """
            <?xml version="1.0"?>
            <?xml-stylesheet href="\(base)/pi.css" type="text/css"?>
            <!DOCTYPE svg [ <!ENTITY remote SYSTEM "\(base)/entity.xml"> ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><text>&remote;</text></svg>
            """
        let dtd = """
            <?xml version="1.0"?>
            <!DOCTYPE svg SYSTEM "\(base)/external.dtd">
            <svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"/>
            """
        for document in [references, prolog, dtd] {
            do {
                let image = try coder.decode(Data(document.utf8))
                #expect(image.pixelSize == PixelSize(width: 16, height: 16))
            } catch let error as WebImageError {
                #expect(error.code == .badImageData)
            }
            _ = try? coder.readHeader(Data(document.utf8))
        }
        // The server does log requests: a control request made here arrives.
        // Long timeouts: on a machine running every suite at once 60 s ran out twice. The session's
        // own request timeout (60 s by default) bounds the request's on Linux, so both are raised.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 300
        configuration.timeoutIntervalForResource = 600
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let control = URLRequest(url: server.url("/control"), timeoutInterval: 300)
        let (_, response) = try await session.data(for: control)
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
        let paths = server.log.requests.map(\.path)
        #expect(paths == ["/control"], "the SVG decoder fetched \(paths)")
        await server.shutdown()
    }

    @Test func garbageIsBadImageData() throws {
        let inputs = [
            "<svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect", "<?xml version=\"1.0\"?><svg><g></svg>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\">\u{0}\u{1}</svg>",
        ]
        for input in inputs {
            let error = try #require(throws: WebImageError.self, "\(input)") { try coder.decode(Data(input.utf8)) }
            #expect(error.code == .badImageData, "\(input): \(error)")
        }
        let notSVG = try #require(throws: WebImageError.self) { try coder.decode(Data("<html/>".utf8)) }
        #expect(notSVG.code == .badImageData)
    }

    /// Every truncation and a few hundred seeded byte flips of a generated document: an image or a
    /// typed error, never a crash or a hang.
    @Test func corruptedDocumentsNeverCrash() throws {
        let original = Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="24" height="16" viewBox="0 0 24 16">
              <defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f" stop-opacity="0.5"/></linearGradient></defs>
              <rect width="24" height="16" fill="url(#g)"/>
              <circle cx="12" cy="8" r="5" fill="none" stroke="#0f0" stroke-width="2"/>
              <path d="M0 0 L24 16 Z" stroke="black"/>
            </svg>
            """.utf8)
        var variants: [Data] = (0..<original.count).map { original.prefix($0) }
        var state: UInt64 = 0xD1B5_4A32_D192_ED03
        for trial in 0..<300 {
            var bytes = [UInt8](original)
            for _ in 0..<(1 + trial % 4) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes[Int(state >> 33) % bytes.count] ^= UInt8(truncatingIfNeeded: state >> 17) | 1
            }
            variants.append(Data(bytes))
        }
        var decoded = 0
        for (index, variant) in variants.enumerated() {
            do {
                let image = try coder.decode(variant)
                #expect(image.pixelSize.pixelCount <= ImageDecodingOptions.defaultMaxPixelCount)
                decoded += 1
            } catch let error as WebImageError {
                #expect(error.code == .badImageData, "variant \(index): \(error)")
            }
        }
        #expect(decoded > 0)
    }
}
