import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageGIF

/// GIF delays: stored centiseconds, played by ``FrameDurationRule``, written back as stored.
@Suite("GIF durations")
struct GIFDurationTests {
    /// `GIFTestFiles.disposals()` stores 0, 1, 2, 7 and 10 centiseconds.
    static let stored = [0, 0.01, 0.02, 0.07, 0.1]
    static let played = [0.1, 0.1, 0.02, 0.07, 0.1]

    @Test func decodeReportsPlayedAndStored() throws {
        let animation = try #require(try GIFCoder().decode(try GIFTestFiles.disposals()).animation)
        #expect((0..<5).map { animation.duration(at: $0) } == Self.played)
        #expect((0..<5).map { animation.storedDuration(at: $0) } == Self.stored)
        #expect(try animation.frame(at: 0).duration == 0.1)
    }

    @Test func headerReportsPlayedAndStored() throws {
        let header = try GIFCoder().readHeader(try GIFTestFiles.disposals())
        #expect(header.frameDurations == Self.played)
        #expect(header.storedFrameDurations == Self.stored)
    }

    @Test func encoderWritesStoredDelays() throws {
        let decoded = try GIFCoder().decode(try GIFTestFiles.disposals(), options: GIFTestFiles.straight)
        let data = try GIFCoder().encode(decoded, as: .gif, options: ImageEncodingOptions())
        let header = try GIFCoder().readHeader(data)
        #expect(header.storedFrameDurations == Self.stored)
        #expect(header.frameDurations == Self.played)
    }

    @Test(arguments: [
        (0.0, 0), (0.004, 0), (0.01, 1), (0.0104, 2), (0.011, 2), (0.014, 2), (0.02, 2), (0.07, 7), (1.0, 100),
        (1000.0, 65535), (-1.0, 0), (Double.nan, 0),
    ])
    func delayCentiseconds(seconds: Double, expected: Int) {
        #expect(GIFEncoder.delayCentiseconds(seconds) == expected)
    }
}
