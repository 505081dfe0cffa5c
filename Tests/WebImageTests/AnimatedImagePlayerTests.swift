import Synchronization
import Testing
import WebImage
import WebImageTesting

/// Playback driven by a manual clock: the test moves time, the player emits what is due.
@Suite("AnimatedImagePlayer", .timeLimit(.minutes(3)))
struct AnimatedImagePlayerTests {
    let frameTime = Duration.milliseconds(100)

    /// A player over `source` on a manual clock, with a pool of `budget` bytes.
    func makePlayer(_ source: CountingAnimation, budget: Int = 1 << 20) -> (AnimatedImagePlayer, ManualClock) {
        let clock = ManualClock()
        let player = AnimatedImagePlayer(animation: source, clock: clock, pool: AnimatedFramePool(budget: budget))
        return (player, clock)
    }

    /// Reads every frame until the stream ends, moving the clock one frame time after each.
    func playToEnd(_ player: AnimatedImagePlayer, _ clock: ManualClock, limit: Int = 100) async -> [Int] {
        var frames = player.frames.makeAsyncIterator()
        var seen: [Int] = []
        while seen.count < limit, let frame = await frames.next() {
            seen.append(frame.index)
            clock.advance(by: frameTime)
        }
        return seen
    }

    func allEvents(_ player: AnimatedImagePlayer) async -> [AnimatedImagePlayer.Event] {
        var events: [AnimatedImagePlayer.Event] = []
        for await event in player.events { events.append(event) }
        return events
    }

    /// Moves the clock and waits until the player is parked on it again (or was not woken).
    func advance(_ clock: ManualClock, by duration: Duration) async {
        clock.advance(by: duration)
        await clock.waitForSleepers(1)
    }

    static let orders: [(AnimatedImagePlayer.PlaybackMode, [Int])] = [
        (.normal, [0, 1, 2, 3, 0, 1, 2, 3]),
        (.reverse, [3, 2, 1, 0, 3, 2, 1, 0]),
        (.bounce, [0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0]),
        (.reversedBounce, [3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3]),
    ]

    @Test("Two loops of four frames play in the mode's order", arguments: Self.orders)
    func playbackOrder(mode: AnimatedImagePlayer.PlaybackMode, expected: [Int]) async {
        let (player, clock) = makePlayer(CountingAnimation(frames: 4, loopCount: 2))
        player.playbackMode = mode
        player.play()
        let played = await playToEnd(player, clock)
        #expect(played == expected, "\(mode)")
        #expect(await allEvents(player) == [.loopFinished(completedLoops: 1), .loopFinished(completedLoops: 2), .finished])
        #expect(player.status.isFinished)
    }

    @Test func loopCountOnePlaysOnceAndEnds() async {
        let (player, clock) = makePlayer(CountingAnimation(frames: 3, loopCount: 1))
        #expect(player.loopCount == 1)
        player.play()
        #expect(await playToEnd(player, clock) == [0, 1, 2])
        #expect(await allEvents(player) == [.loopFinished(completedLoops: 1), .finished])
        player.play()  // a finished player stays finished
        #expect(player.status.isFinished && !player.status.isPlaying)
    }

    @Test func zeroLoopsPlaysForeverAndReleasingThePlayerEndsTheStreams() async {
        let clock = ManualClock()
        var player: AnimatedImagePlayer? = AnimatedImagePlayer(
            animation: CountingAnimation(frames: 3, loopCount: 0), clock: clock)
        #expect(player?.loopCount == 0)
        player?.play()
        var frames = player!.frames.makeAsyncIterator()
        let events = player!.events
        var seen: [Int] = []
        for _ in 0..<300 {  // 100 loops
            guard let frame = await frames.next() else { break }
            seen.append(frame.index)
            clock.advance(by: frameTime)
        }
        await clock.waitForSleepers(1)
        #expect(seen == Array(repeating: [0, 1, 2], count: 100).flatMap { $0 })
        #expect(player?.status == .init(frameIndex: 0, loop: 100, isPlaying: true, isFinished: false))
        player = nil
        var buffered = 0
        while await frames.next() != nil { buffered += 1 }  // ends: the player is gone
        #expect(buffered <= 1)
        var notices: [AnimatedImagePlayer.Event] = []
        for await event in events { notices.append(event) }
        #expect(!notices.contains(.finished))  // released, not played to the end
        #expect(notices.last == .loopFinished(completedLoops: 100))
    }

    @Test func seekShowsTheFrameAtOnceAndPlaysOnFromIt() async {
        let (player, clock) = makePlayer(CountingAnimation(frames: 4, loopCount: 2))
        var frames = player.frames.makeAsyncIterator()
        player.seek(toFrame: 2)
        let sought = await frames.next()
        #expect(sought?.index == 2 && sought?.loop == 0 && !player.status.isPlaying)
        player.play()
        await clock.waitForSleepers(1)
        clock.advance(by: frameTime)
        #expect(await frames.next()?.index == 3)
        player.seek(toFrame: 1, loop: 1)  // while playing
        let second = await frames.next()
        #expect(second?.index == 1 && second?.loop == 1)
        await clock.waitForSleepers(1)
        clock.advance(by: frameTime)
        #expect(await frames.next()?.index == 2)
        player.seek(toFrame: 99, loop: 99)  // clamped to the last frame of the last loop
        let clamped = await frames.next()
        #expect(clamped?.index == 3 && clamped?.loop == 1)
    }

    @Test func pauseKeepsThePositionAndPlayResumesIt() async {
        let (player, clock) = makePlayer(CountingAnimation(frames: 4, loopCount: 0))
        var frames = player.frames.makeAsyncIterator()
        player.play()
        #expect(await frames.next()?.index == 0)
        await advance(clock, by: frameTime)
        #expect(await frames.next()?.index == 1)
        await advance(clock, by: .milliseconds(50))  // halfway through frame 1
        player.pause()
        clock.advance(by: .seconds(10))
        #expect(player.status.frameIndex == 1 && !player.status.isPlaying && clock.sleeperCount == 0)
        player.play()
        await advance(clock, by: .milliseconds(49))
        #expect(player.status.frameIndex == 1)
        clock.advance(by: .milliseconds(1))  // the other half of frame 1 is over
        #expect(await frames.next()?.index == 2)
    }

    @Test func stopGoesBackToTheFirstFrame() async {
        let (player, clock) = makePlayer(CountingAnimation(frames: 4, loopCount: 0))
        var frames = player.frames.makeAsyncIterator()
        player.play()
        #expect(await frames.next()?.index == 0)
        await advance(clock, by: frameTime)
        await advance(clock, by: frameTime)
        #expect(await frames.next()?.index == 2)
        player.stop()
        let first = await frames.next()
        #expect(first?.index == 0 && first?.loop == 0 && !player.status.isPlaying)
        clock.advance(by: .seconds(5))
        #expect(player.status.frameIndex == 0)
        player.play()
        await advance(clock, by: frameTime)
        #expect(await frames.next()?.index == 1)
    }

    @Test func rateTwoHalvesTheTime() async {
        let (player, clock) = makePlayer(CountingAnimation(frames: 4, loopCount: 2))
        player.playbackRate = 2
        player.play()
        await clock.waitForSleepers(1)
        var seen = [player.status.frameIndex]
        for _ in 0..<7 {
            await advance(clock, by: .milliseconds(50))
            seen.append(player.status.frameIndex)
        }
        #expect(seen == [0, 1, 2, 3, 0, 1, 2, 3])
        clock.advance(by: .milliseconds(50))  // 400 ms: two loops of 800 ms at twice the speed
        #expect(await allEvents(player).last == .finished)

        let (slow, slowClock) = makePlayer(CountingAnimation(frames: 4, loopCount: 2))
        slow.playbackRate = 0.5
        slow.play()
        await slowClock.waitForSleepers(1)
        await advance(slowClock, by: .milliseconds(199))
        #expect(slow.status.frameIndex == 0)
        await advance(slowClock, by: .milliseconds(1))
        #expect(slow.status.frameIndex == 1)
        slow.playbackRate = 0  // holds the position
        slowClock.advance(by: .seconds(60))
        #expect(slow.status.frameIndex == 1 && slow.status.isPlaying)
    }

    @Test func aSlowConsumerGetsTheFrameDueNow() async {
        let (player, clock) = makePlayer(CountingAnimation(frames: 4, loopCount: 0))
        var frames = player.frames.makeAsyncIterator()
        player.play()
        #expect(await frames.next()?.index == 0)
        for _ in 0..<3 { await advance(clock, by: frameTime) }  // three frames go by unread
        let late = await frames.next()
        #expect(late?.index == 3)
        await advance(clock, by: frameTime)
        #expect(await frames.next()?.index == 0)  // on schedule: loop 1 starts at 400 ms
    }

    @Test func aSlowDecoderMakesThePlayerSkipNotDrift() async {
        let clock = ManualClock()
        // Decoding frame 1 takes 250 ms of the clock: frames 2 is skipped, frame 3 is due at 350 ms.
        let source = CountingAnimation(frames: 4, loopCount: 0) { index in
            if index == 1 { clock.advance(by: .milliseconds(250)) }
        }
        let player = AnimatedImagePlayer(animation: source, clock: clock, pool: AnimatedFramePool(budget: 0))
        player.play()
        await clock.waitForSleepers(1)
        await advance(clock, by: frameTime)
        #expect(player.status.frameIndex == 3)
        #expect(source.decoded == [0, 1, 3])
        await advance(clock, by: .milliseconds(50))  // 400 ms: loop 1 starts on time
        #expect(player.status.frameIndex == 0 && player.status.loop == 1)
    }

    @Test func aZeroBudgetDecodesEachFrameJustInTime() async {
        let source = CountingAnimation(frames: 4, loopCount: 2)
        let (player, clock) = makePlayer(source, budget: 0)
        player.play()
        await clock.waitForSleepers(1)
        #expect(source.decoded == [0])
        for step in 1..<8 {
            await advance(clock, by: frameTime)
            #expect(source.decoded.count == step + 1)
        }
        #expect(source.decoded == [0, 1, 2, 3, 0, 1, 2, 3])
    }

    @Test func theBufferDecodesAheadWithinMaxBufferSizeAndALoopThatFitsIsDecodedOnce() async {
        let source = CountingAnimation(frames: 6, loopCount: 3)
        let (player, clock) = makePlayer(source)
        player.maxBufferSize = 2
        player.play()
        await clock.waitForSleepers(1)
        #expect(source.decoded == [0, 1, 2])  // frame on screen + two ahead
        await advance(clock, by: frameTime)
        #expect(source.decoded == [0, 1, 2, 3])
        for _ in 0..<16 { await advance(clock, by: frameTime) }
        #expect(player.status.loop == 2 && player.status.frameIndex == 5)
        #expect(source.decoded == [0, 1, 2, 3, 4, 5])  // loops 2 and 3 came from the pool
    }

    @Test func aDecodeFailureEndsPlaybackWithAnEvent() async {
        final class Broken: AnimatedImageSource {
            var frameCount: Int { 3 }
            var loopCount: Int { 0 }
            var canvasSize: PixelSize { PixelSize(width: 1, height: 1) }
            func duration(at index: Int) -> Double { 0.1 }
            func frame(at index: Int) throws -> AnimationFrame {
                guard index < 1 else { throw WebImageError.badData("frame \(index) is corrupt") }
                return AnimationFrame(pixels: PixelBuffer(width: 1, height: 1, alphaMode: .straight), duration: 0.1)
            }
        }
        let clock = ManualClock()
        let player = AnimatedImagePlayer(animation: Broken(), clock: clock, pool: AnimatedFramePool(budget: 0))
        player.play()
        await clock.waitForSleepers(1)
        clock.advance(by: frameTime)
        let events = await allEvents(player)
        guard case .failed(let error)? = events.first else {
            Issue.record("no failure event: \(events)")
            return
        }
        #expect(error.code == .badImageData && events.count == 1)
        #expect(player.status.isFinished)
    }

    @Test func durationsOfTenMillisecondsOrLessPlayAsOneHundred() async {
        let (player, clock) = makePlayer(CountingAnimation(frames: 2, duration: 0.01, loopCount: 1))
        player.play()
        await advance(clock, by: .milliseconds(99))
        #expect(player.status.frameIndex == 0)
        await advance(clock, by: .milliseconds(1))
        #expect(player.status.frameIndex == 1)
    }
}
