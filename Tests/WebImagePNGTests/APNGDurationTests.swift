import Foundation
import Testing
import WebImage
import WebImagePNG
import WebImageTesting

/// APNG delays: `delay_num / delay_den` as stored, played by ``FrameDurationRule``, written back
/// as exact fractions.
@Suite("APNG durations")
struct APNGDurationTests {
    /// (delay_num, delay_den) per frame: 0/0, 0/100, 1/100, 1/0 (hundredths), 2/100, 21/1000, 1/3.
    static let delays = [(0, 0), (0, 100), (1, 100), (1, 0), (2, 100), (21, 1000), (1, 3)]
    static let stored = [0, 0, 0.01, 0.01, 0.02, 0.021, 1.0 / 3]
    static let played = [0.1, 0.1, 0.1, 0.1, 0.02, 0.021, 1.0 / 3]

    /// A 1×1 APNG, one colour per frame, with `delays`.
    static func file() -> Data {
        var chunks = [TestPNG.ihdr(width: 1, height: 1), TestPNG.acTL(frames: delays.count, plays: 0)]
        var sequence = 0
        for (index, delay) in delays.enumerated() {
            chunks.append(TestPNG.fcTL(sequence, width: 1, height: 1, delay: delay))
            sequence += 1
            let data = TestPNG.solid(width: 1, height: 1, [index * 30, 0, 255 - index * 30, 255])
            if index == 0 {
                chunks.append(TestPNG.chunk("IDAT", data))
            } else {
                chunks.append(TestPNG.fdAT(sequence, data))
                sequence += 1
            }
        }
        chunks.append(TestPNG.chunk("IEND", []))
        return TestPNG.file(chunks)
    }

    @Test func decodeReportsPlayedAndStored() throws {
        let animation = try #require(try PNGCoder().decode(Self.file()).animation)
        #expect(animation.frameCount == Self.delays.count)
        #expect((0..<animation.frameCount).map { animation.duration(at: $0) } == Self.played)
        #expect((0..<animation.frameCount).map { animation.storedDuration(at: $0) } == Self.stored)
        #expect(try animation.frame(at: 1).duration == 0.1)
    }

    @Test func headerReportsPlayedAndStored() throws {
        let header = try PNGCoder().readHeader(Self.file())
        #expect(header.frameDurations == Self.played)
        #expect(header.storedFrameDurations == Self.stored)
    }

    @Test func encoderWritesStoredDelaysExactly() throws {
        let decoded = try PNGCoder().decode(Self.file())
        let data = try PNGCoder().encode(decoded, as: .apng, options: ImageEncodingOptions())
        let header = try PNGCoder().readHeader(data)
        #expect(header.storedFrameDurations == Self.stored)
        #expect(header.frameDurations == Self.played)
    }

    @Test func fractionsThatNoMillisecondCountHolds() throws {
        let stored = [1.0 / 3, 0.0104, 2.0 / 7, 12345.5, 0]
        let frames = stored.indices.map {
            AnimationFrame(pixels: ImageFixtures.movingSquare(index: $0), duration: FrameDurationRule.played(stored[$0]))
        }
        let source = InMemoryAnimation(frames: frames, loopCount: 0, storedDurations: stored)
        let data = try PNGCoder().encode(Image(pixels: frames[0].pixels, animation: source), as: .apng, options: .init())
        let header = try PNGCoder().readHeader(data)
        #expect(header.storedFrameDurations == stored)
        #expect(header.frameDurations?[1] == 0.0104)
        #expect(header.frameDurations?[4] == 0.1)
    }
}
