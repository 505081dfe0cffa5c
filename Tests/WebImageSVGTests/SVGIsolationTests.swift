import Foundation
import Testing
import WebImage
import WebImageSVG

/// librsvg runs in a `webimage-svg-render` process per document: a document that makes it panic
/// (a Rust panic aborts the process it runs in) or run away costs that process only.
@Suite struct SVGIsolationTests {
    /// A document librsvg 2.54 panics on (`assertion failed: h >= 0.0`), its font size given where
    /// ``SVGComplexity`` does not look (a `<style>` element), so that only the process boundary
    /// stands between it and ours.
    static let panicking = Data(
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><style>text{font-size:3e19px}</style>\
        <text x="2" y="79">Hi</text></svg>
        """.utf8)
    /// The 150-byte document the `svg` fuzz target found (issue 25).
    static let fuzzFinding = Data(
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text x="2" y="79" \
        font-size="33333333333333333338">Hi</text></svg>
        """.utf8)

    static func isolated(cpuSeconds: Int = 30, limits: SVGComplexity.Limits = .standard) throws -> SVGCoder {
        guard case .process(let executable, _) = SVGCoder.Isolation.automatic else {
            Issue.record("webimage-svg-render is not beside the test binary")
            throw WebImageError(.unsupportedFormat, "no renderer")
        }
        return SVGCoder(
            isolation: .process(executable: executable, limits: SVGCoder.IsolationLimits(cpuSeconds: cpuSeconds)),
            complexityLimits: limits)
    }

    @Test func theRendererIsFoundBesideTheTestBinary() {
        guard case .process(let executable, let limits) = SVGCoder.Isolation.automatic else {
            Issue.record("the automatic isolation is \(SVGCoder.Isolation.automatic)")
            return
        }
        #expect(executable.hasSuffix("/webimage-svg-render"))
        #expect(limits == SVGCoder.IsolationLimits())
        #expect(SVGCoder().isolation == .automatic)
    }

    @Test func aPanicInLibrsvgIsATypedErrorAndTheNextDocumentRenders() throws {
        let coder = try Self.isolated()
        for _ in 0..<2 {
            let error = try #require(throws: WebImageError.self) { try coder.decode(Self.panicking) }
            #expect(error.code == .badImageData, "\(error)")
            #expect(error.message.contains("librsvg panicked: assertion failed: h >= 0.0"), "\(error)")
            let fine = try coder.decode(SVGRenderingTests.svg("width=\"8\" height=\"8\""))
            #expect(fine.pixels[4, 4] == RGBA8(r: 255, g: 0, b: 0))
        }
    }

    @Test func theFuzzFindingIsRefusedBeforeRenderingAndCaughtByTheProcessWithoutTheScanner() throws {
        let error = try #require(throws: WebImageError.self) { try SVGCoder().decode(Self.fuzzFinding) }
        #expect(error.code == .tooLarge, "\(error)")
        #expect(error.message.contains("font size"), "\(error)")
        let unscanned = try Self.isolated(limits: .unlimited)
        let crash = try #require(throws: WebImageError.self) { try unscanned.decode(Self.fuzzFinding) }
        #expect(crash.code == .badImageData, "\(crash)")
        #expect(crash.message.contains("panicked"), "\(crash)")
    }

    @Test func theHeaderIsReadInTheProcessToo() throws {
        let coder = try Self.isolated()
        let header = try coder.readHeader(SVGRenderingTests.svg("width=\"40\" height=\"20\""))
        #expect(header.pixelSize == PixelSize(width: 40, height: 20))
        #expect(throws: WebImageError.self) { try coder.readHeader(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><".utf8)) }
    }

    @Test func bothPlacesRenderTheSamePixels() throws {
        let documents = [
            SVGRenderingTests.svg("width=\"33\" height=\"17\""),
            SVGRenderingTests.svg(
                "viewBox=\"0 0 10 10\"",
                "<circle cx=\"5\" cy=\"5\" r=\"4\" fill=\"#3366cc\" fill-opacity=\"0.5\" stroke=\"#000\"/>"),
            SVGRenderingTests.svg(""),
        ]
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 64, height: 64)
        let isolated = try Self.isolated()
        let inProcess = SVGCoder(isolation: .inProcess)
        for document in documents {
            for decoding in [ImageDecodingOptions(), options] {
                let a = try isolated.decode(document, options: decoding)
                let b = try inProcess.decode(document, options: decoding)
                #expect(a.pixelSize == b.pixelSize)
                #expect(a.pixels.bytes == b.pixels.bytes)
                #expect(a.originalPixelSize == b.originalPixelSize)
            }
        }
    }

    /// A render that would take far longer than its CPU allowance: the kernel stops the process.
    @Test func aRunawayRenderIsStoppedByItsCPUAllowance() throws {
        let coder = try Self.isolated(cpuSeconds: 1, limits: .unlimited)
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(throws: WebImageError.self) { try coder.decode(Self.slowDocument) }
        #expect(error.code == .tooLarge, "\(error)")
        #expect(error.message.contains("CPU time"), "\(error)")
        // One CPU second; wall time may stretch on a loaded machine, never to the render's own length.
        #expect(clock.now - start < .seconds(60))
    }

    /// Cancelling the decoding task stops the renderer within a poll interval, not at the render's end.
    @Test func cancellingTheTaskStopsTheRenderer() async throws {
        let coder = try Self.isolated(limits: .unlimited)
        let document = Self.slowDocument
        let clock = ContinuousClock()
        // On the blocking executor, as the library's limiter runs decodes: a blocked cooperative
        // thread could keep this test from even calling cancel() on a loaded machine.
        let task = Task.detached {
            try await withTaskExecutorPreference(BlockingWorkExecutor.shared) { try coder.decode(document) }
        }
        try await Task.sleep(for: .milliseconds(300))
        let start = clock.now
        task.cancel()
        let result = await task.result
        let error = try #require(throws: WebImageError.self) { try result.get() }
        #expect(error.code == .cancelled, "\(error)")
        // `cancelled` proves the process was stopped (a finished render returns an image); the bound
        // only says "well before the render's own end" (over a minute on CI's loaded cores).
        #expect(clock.now - start < .seconds(45), "cancellation took \(clock.now - start)")
    }

    /// 4,000 overlapping blurred circles at 4096 × 4096: tens of seconds of librsvg.
    static let slowDocument: Data = {
        var body = "<filter id=\"b\"><feGaussianBlur stdDeviation=\"40\"/></filter><g filter=\"url(#b)\">"
        for index in 0..<4_000 {
            body += "<circle cx=\"\(index % 97 * 40)\" cy=\"\(index % 89 * 45)\" r=\"900\" fill=\"#3366cc\" fill-opacity=\"0.3\"/>"
        }
        return SVGRenderingTests.svg("width=\"4096\" height=\"4096\"", body + "</g>")
    }()
}
