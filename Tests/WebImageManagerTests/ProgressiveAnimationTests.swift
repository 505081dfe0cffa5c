import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

/// An animation that plays while it downloads: frames as their bytes arrive, a wait (not a loop)
/// at the last frame there is, the whole animation once the download ends.
@Suite("Progressive animated playback", .timeLimit(.minutes(5)))
struct ProgressiveAnimationTests {
    static let frameTime = Duration.milliseconds(100)

    /// Six moving-square frames of 100 ms, looping forever, in `format`.
    static func animation(_ format: ImageFormat) throws -> Data {
        try ImageCodersManager.standard().encode(ImageFixtures.animation(frames: 6), as: format, options: ImageEncodingOptions())
    }

    /// The shortest prefix of `data` whose whole frames number at least `frames`.
    static func prefixLength(of data: Data, holding frames: Int, coders: ImageCodersManager) -> Int {
        var low = 1, high = data.count
        while low < high {
            let middle = (low + high) / 2
            let partial = ProgressiveAnimation(decoder: coders)
            partial.append(data.prefix(middle))
            if partial.frameCount >= frames { high = middle } else { low = middle + 1 }
        }
        return low
    }

    @Test(arguments: [ImageFormat.gif, .webp, .png])
    func framesBecomePlayableAsTheirBytesArrive(format: ImageFormat) throws {
        let coders = ImageCodersManager.standard()
        let data = try Self.animation(format)
        let full = try coders.decode(data)
        #expect(full.animation?.frameCount == 6)
        let partial = ProgressiveAnimation(decoder: coders)
        partial.append(data.prefix(20))
        #expect(partial.frameCount == 0 && !partial.isComplete)
        var seen = 0
        var offset = 20
        while offset < data.count {
            let end = min(data.count, offset + 97)
            partial.append(data[offset..<end])
            offset = end
            #expect(partial.frameCount >= seen, "frames never go away")
            seen = partial.frameCount
        }
        // Every byte is in but the download has not said it ended: the last frame may still grow.
        #expect(seen >= 4 && seen <= 6, "\(format): \(seen) frames")
        for index in 0..<seen {
            #expect(try partial.frame(at: index).pixels == full.animation?.frame(at: index).pixels, "\(format) frame \(index)")
        }
        try partial.finish()
        #expect(partial.isComplete && partial.frameCount == 6)
        #expect(try partial.frame(at: 5).pixels == full.animation?.frame(at: 5).pixels)
    }

    @Test func whileGrowingFramesPlayInOrderAndTheModeAppliesOnceComplete() async throws {
        let coders = ImageCodersManager.standard()
        let bytes = try Self.animation(.gif)
        let cut = Self.prefixLength(of: bytes, holding: 3, coders: coders)
        let animation = ProgressiveAnimation(decoder: coders)
        animation.append(bytes.prefix(cut))
        let clock = ManualClock()
        let player = AnimatedImagePlayer(animation: animation, clock: clock, pool: AnimatedFramePool(budget: 1 << 22))
        player.playbackMode = .reverse
        #expect(player.playbackMode == .reverse)
        var frames = player.frames.makeAsyncIterator()
        player.play()
        var played: [Int] = []
        for _ in 0..<3 {
            played.append(try #require(await frames.next()).index)
            await clock.waitForSleepers(1)
            if played.count < 3 { clock.advance(by: Self.frameTime) }
        }
        #expect(played == [0, 1, 2])
        // Complete while frame 2 shows: reverse from it, then on to the next loop.
        animation.append(bytes[cut...])
        try animation.finish()
        played = []
        for _ in 0..<4 {
            await clock.waitForSleepers(1)
            clock.advance(by: Self.frameTime)
            played.append(try #require(await frames.next()).index)
        }
        #expect(played == [1, 0, 5, 4])
    }

    @Test func notAnImageShowsNothingAndFinishThrows() {
        let partial = ProgressiveAnimation(decoder: ImageCodersManager.standard())
        partial.append(Data(repeating: 0x41, count: 500))
        #expect(partial.frameCount == 0)
        #expect(throws: WebImageError.self) { try partial.finish() }
        #expect(!partial.isComplete)
    }

    @Test(arguments: [ImageFormat.gif, .webp, .png])
    func anAnimationPlaysWhileItDownloadsWaitsForFramesAndLoopsOnceComplete(format: ImageFormat) async throws {
        try await withHarness { harness in
            let coders = ImageCodersManager.standard()
            let bytes = try Self.animation(format)
            let first = Self.prefixLength(of: bytes, holding: 2, coders: coders)
            let second = Self.prefixLength(of: bytes, holding: 4, coders: coders)
            let parts = [bytes.prefix(first), bytes[first..<second], bytes[second...]]
            let gates = [TestGate(), TestGate()]
            harness.server.route("/growing", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/\(format.rawValue)")],
                body: TestResponse.steps(Data(parts[0])) + [.wait(gates[0])] + TestResponse.steps(Data(parts[1]))
                    + [.wait(gates[1])] + TestResponse.steps(Data(parts[2]))))

            // The player exists before any byte: it shows frame 0 when frame 0 is whole.
            let animation = ProgressiveAnimation(decoder: coders)
            let clock = ManualClock()
            let player = AnimatedImagePlayer(animation: animation, clock: clock, pool: AnimatedFramePool(budget: 1 << 22))
            var frames = player.frames.makeAsyncIterator()
            player.play()
            func next() async -> (Int, Int)? { await frames.next().map { ($0.index, $0.loop) } }

            var request = ImageLoad.Request(url: harness.server.url("/growing"))
            request.reportsPartialData = true
            let load = harness.http.load(request)
            let feeder = Task {
                for try await event in load.events {
                    switch event {
                    case .progress(let progress): animation.replace(with: progress.partialData ?? Data())
                    case .finished(let result): try animation.finish(with: result.data)
                    default: break
                    }
                }
            }
            #expect(await next()! == (0, 0))
            try await eventually { animation.frameCount == 2 }
            await clock.waitForSleepers(1)
            clock.advance(by: Self.frameTime)
            #expect(await next()! == (1, 0))
            // Frame 1 is the last there is: its time passes, and playback waits on it (no loop to 0).
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            #expect(player.status == .init(frameIndex: 1, loop: 0, isPlaying: true, isFinished: false))

            gates[0].open()
            // Frames 2 and 3 arrive: playback goes on at once with frame 2.
            #expect(await next()! == (2, 0))
            await clock.waitForSleepers(1)
            clock.advance(by: Self.frameTime)
            #expect(await next()! == (3, 0))
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            #expect(player.status.frameIndex == 3 && player.status.loop == 0)

            gates[1].open()
            try await feeder.value
            #expect(animation.isComplete && animation.frameCount == 6)
            // The whole animation: the last frames, then the next loop from the start.
            var played: [Int] = []
            var loops: [Int] = []
            while played.count < 8, let frame = await frames.next() {
                played.append(frame.index)
                loops.append(frame.loop)
                await clock.waitForSleepers(1)
                clock.advance(by: Self.frameTime)
            }
            #expect(played == [4, 5, 0, 1, 2, 3, 4, 5])
            #expect(loops == [0, 0, 1, 1, 1, 1, 1, 1])
            #expect(harness.server.requestCount("/growing") == 1)
        }
    }
}
