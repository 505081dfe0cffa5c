import Foundation
import Testing
import WebImage
import WebImageTesting
import WebImageWebP

/// Animated WebP delays: `ANMF` milliseconds as stored, played by ``FrameDurationRule``, written
/// back as stored.
@Suite("WebP durations")
struct WebPDurationTests {
    /// `data` with each `ANMF` chunk's duration replaced by `milliseconds[i]` (set by hand).
    static func settingDurations(_ data: Data, to milliseconds: [Int]) -> Data {
        var bytes = [UInt8](data)
        var offset = 12
        var frame = 0
        while offset + 8 <= bytes.count {
            let tag = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 24
            if tag == "ANMF" {
                // Payload: X, Y, width − 1, height − 1 (3 bytes each), then the 3-byte duration.
                let duration = offset + 8 + 12
                bytes.replaceSubrange(duration..<duration + 3, with: WebPTestData.le24(milliseconds[frame]))
                frame += 1
            }
            offset += 8 + size + size % 2
        }
        precondition(frame == milliseconds.count, "the file has \(frame) frames")
        return Data(bytes)
    }

    static let milliseconds = [0, 5, 10, 11, 20]
    static let stored = [0, 0.005, 0.01, 0.011, 0.02]
    static let played = [0.1, 0.1, 0.1, 0.011, 0.02]

    static func file() throws -> Data {
        settingDurations(try WebPTestData.animation(frames: 5, duration: 0.1, loopCount: 2), to: milliseconds)
    }

    @Test func decodeReportsPlayedAndStored() throws {
        let animation = try #require(try WebPCoder().decode(Self.file()).animation)
        #expect(animation.frameCount == 5)
        #expect((0..<5).map { animation.duration(at: $0) } == Self.played)
        #expect((0..<5).map { animation.storedDuration(at: $0) } == Self.stored)
        #expect(try animation.frame(at: 0).duration == 0.1)
    }

    @Test func headerReportsPlayedAndStored() throws {
        let header = try WebPCoder().readHeader(Self.file())
        #expect(header.frameDurations == Self.played)
        #expect(header.storedFrameDurations == Self.stored)
    }

    @Test func encoderWritesStoredDelays() throws {
        let decoded = try WebPCoder().decode(Self.file(), options: WebPTestData.straight)
        let data = try WebPCoder().encode(decoded, as: .webp, options: ImageEncodingOptions(lossless: true))
        let header = try WebPCoder().readHeader(data)
        #expect(header.storedFrameDurations == Self.stored)
        #expect(header.frameDurations == Self.played)
        #expect(header.loopCount == 2)
    }

    @Test func roundingNeverMovesAFrameIntoTheHundredMillisecondZone() throws {
        let stored = [0.0104, 0.0004, 0.25]
        let frames = stored.indices.map {
            AnimationFrame(pixels: ImageFixtures.movingSquare(index: $0), duration: FrameDurationRule.played(stored[$0]))
        }
        let source = InMemoryAnimation(frames: frames, loopCount: 0, storedDurations: stored)
        let data = try WebPCoder().encode(
            Image(pixels: frames[0].pixels, animation: source), as: .webp, options: ImageEncodingOptions(lossless: true))
        let header = try WebPCoder().readHeader(data)
        #expect(header.storedFrameDurations == [0.011, 0, 0.25])
        #expect(header.frameDurations == [0.011, 0.1, 0.25])
    }
}
