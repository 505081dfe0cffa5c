import Foundation
import Synchronization
import Testing
@testable import WebImageCodecs
@testable import WebImageGIF
@testable import WebImagePNG
@testable import WebImageWebP
import WebImageTesting

/// Frames of real GIF, APNG and animated WebP files made by our encoders: what each step costs,
/// how decoded animations join the frame pool, and players sharing one budget.
@Suite("Animated frames: sequential cost, the pool and players", .timeLimit(.minutes(2)))
struct AnimatedFramesTests {
    /// Six 32×32 moving-square frames (seed shifts the square), 100 ms each.
    static func encoded(_ format: ImageFormat, frames: Int = 6, seed: Int = 0, loopCount: Int = 0) throws -> Data {
        let list = (0..<frames).map {
            AnimationFrame(pixels: ImageFixtures.movingSquare(index: $0 + seed), duration: 0.1)
        }
        let image = Image(pixels: list[0].pixels, animation: InMemoryAnimation(frames: list, loopCount: loopCount))
        let options = ImageEncodingOptions(lossless: true)
        return try ImageCodersManager.standard().encode(image, as: format, options: options)
    }

    /// The format's own source and how many frames it has decoded so far.
    static func decodeCounter(_ animation: any AnimatedImageSource) -> (@Sendable () -> Int)? {
        switch animation {
        case let gif as GIFAnimatedSource: { gif.decodedFrameCount }
        case let apng as APNGFrameSource: { apng.decodedFrameCount }
        case let webp as WebPAnimatedSource: { webp.decodedFrameCount }
        default: nil
        }
    }

    @Test("Frame n+1 after frame n costs one frame's decode", arguments: [ImageFormat.gif, .apng, .webp])
    func sequentialAccessCostsOneFramePerStep(format: ImageFormat) throws {
        let data = try Self.encoded(format, frames: 6)
        let pool = AnimatedFramePool(budget: 0)
        let image = try ImageCodersManager(coders: ImageCodersManager.standard().coders, framePool: pool).decode(data)
        let pooled = try #require(image.animation as? PooledAnimation)
        let decoded = try #require(Self.decodeCounter(pooled.base), "\(type(of: pooled.base))")
        _ = try pooled.frame(at: 0)
        for index in 1..<6 {
            let before = decoded()
            let frame = try pooled.frame(at: index)
            #expect(decoded() - before == 1, "frame \(index)")
            #expect(frame.pixels == ImageFixtures.movingSquare(index: index), "frame \(index)")
        }
        let before = decoded()
        _ = try pooled.frame(at: 5)  // the same frame again: the cursor is on it
        #expect(decoded() == before)
        _ = try pooled.frame(at: 0)  // going back replays from the start: one frame here
        _ = try pooled.frame(at: 1)
        #expect(decoded() - before == 2)
    }

    @Test func decodedAnimationsArePooledAndFirstFrameDecodesStayPlain() throws {
        let pool = AnimatedFramePool(budget: 1 << 20)
        let coders = ImageCodersManager(coders: ImageCodersManager.standard().coders, framePool: pool)
        for format in [ImageFormat.gif, .apng, .webp] {
            let data = try Self.encoded(format)
            let image = try coders.decode(data)
            let animation = try #require(image.animation as? PooledAnimation, "\(format)")
            #expect(animation.pool === pool)
            #expect(image.memoryCost == image.pixels.bytes.count)
            #expect(try image.preloadAllFrames() == 6)
            #expect(image.memoryCost == 7 * 32 * 32 * 4)
            var options = ImageDecodingOptions()
            options.firstFrameOnly = true
            #expect(try coders.decode(data, options: options).animation == nil, "\(format)")
        }
        #expect(pool.statistics.bytesHeld == 0)  // the images are gone, and their frames with them
    }

    @Test func aGIFWithoutALoopBlockPlaysOnce() async throws {
        let data = try Self.encoded(.gif, frames: 3, loopCount: 1)
        #expect(data.range(of: Data("NETSCAPE2.0".utf8)) == nil)
        let image = try ImageCodersManager.standard().decode(data)
        let clock = ManualClock()
        let player = try #require(AnimatedImagePlayer(image: image, clock: clock))
        #expect(player.loopCount == 1)
        player.play()
        var seen: [Int] = []
        for await frame in player.frames {
            seen.append(frame.index)
            clock.advance(by: .milliseconds(100))
        }
        #expect(seen == [0, 1, 2])
        var events: [AnimatedImagePlayer.Event] = []
        for await event in player.events { events.append(event) }
        #expect(events == [.loopFinished(completedLoops: 1), .finished])
    }

    @Test("Three players share the pool's budget; evicted frames decode again exactly", arguments: [ImageFormat.gif, .apng, .webp])
    func threePlayersStayWithinTheBudget(format: ImageFormat) async throws {
        let frameBytes = 32 * 32 * 4
        let pool = AnimatedFramePool(budget: 7 * frameBytes)  // less than the 18 frames played
        let coders = ImageCodersManager(coders: ImageCodersManager.standard().coders, framePool: pool)
        let clock = ManualClock()
        final class Tally: Sendable {
            let counts = Mutex((frames: 0, mismatches: 0))
        }
        let checked = Tally()
        var players: [AnimatedImagePlayer] = []
        var readers: [Task<Void, Never>] = []
        for seed in 0..<3 {
            let data = try Self.encoded(format, frames: 6, seed: seed * 2)
            // The reference: every frame of a fresh decode, read in order.
            let fresh = try #require(try ImageCodersManager.standard().decode(data).animation)
            let reference = try (0..<6).map { try fresh.frame(at: $0).pixels }
            let player = try #require(AnimatedImagePlayer(image: try coders.decode(data), clock: clock))
            player.maxBufferSize = 3
            player.playbackMode = seed == 1 ? .bounce : .normal
            let frames = player.frames
            readers.append(Task {
                for await frame in frames {
                    let same = frame.pixels == reference[frame.index]
                    checked.counts.withLock {
                        $0.frames += 1
                        if !same { $0.mismatches += 1 }
                    }
                }
            })
            players.append(player)
        }
        for player in players { player.play() }
        var samples: [Int] = []
        for _ in 0..<40 {
            await clock.waitForSleepers(3)
            samples.append(pool.statistics.bytesHeld)
            clock.advance(by: .milliseconds(50))
        }
        players.removeAll()  // ends the streams, and the readers with them
        for reader in readers { await reader.value }

        let statistics = pool.statistics
        #expect(samples.allSatisfy { $0 <= 7 * frameBytes } && samples.contains { $0 > 0 })
        #expect(statistics.peakBytesHeld <= 7 * frameBytes)
        #expect(statistics.evictionCount > 0)
        let result = checked.counts.withLock { $0 }
        #expect(result.frames >= 10 && result.mismatches == 0, "\(result)")
    }
}
