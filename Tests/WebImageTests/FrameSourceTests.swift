import Synchronization
import Testing
import WebImage
import WebImageTesting

/// The codecs' one animated-source skeleton: durations through the rule, the range check, a
/// cursor restarted when it cannot reach a frame or fails, and shaping outside the lock.
@Suite struct FrameSourceTests {
    /// The frame that fails once, and how many cursors were made.
    final class Plan: Sendable {
        let failing: Mutex<Int?>
        let made = Mutex(0)
        init(failing: Int?) { self.failing = Mutex(failing) }
        var cursors: Int { made.withLock { $0 } }
    }

    /// A forward-only cursor over moving-square frames that fails once on the plan's frame.
    final class ForwardCursor: FrameCursor {
        let plan: Plan
        private var index = -1
        private(set) var decodedFrames = 0

        init(plan: Plan) {
            self.plan = plan
            plan.made.withLock { $0 += 1 }
        }

        func canReach(_ target: Int) -> Bool { target > index }

        func frame(at target: Int) throws -> PixelBuffer {
            if plan.failing.withLock({ value in defer { if value == target { value = nil } }; return value == target }) {
                throw WebImageError.badData("frame \(target) is corrupt")
            }
            decodedFrames += target - index
            index = target
            return ImageFixtures.movingSquare(index: target)
        }
    }

    @Test func durationsCursorsAndShaping() throws {
        let plan = Plan(failing: 3)
        let source = FrameSource<ForwardCursor>(
            format: "Test", frameCount: 5, loopCount: 2, storedDurations: [0, 0.01, 0.02, 0.5],
            canvasSize: PixelSize(width: 16, height: 16), alphaMode: .premultiplied
        ) { ForwardCursor(plan: plan) }
        #expect(source.loopCount == 2)
        #expect((0..<5).map(source.duration(at:)) == [0.1, 0.1, 0.02, 0.5, 0.1])
        #expect((0..<5).map(source.storedDuration(at:)) == [0, 0.01, 0.02, 0.5, 0])

        let frame = try source.frame(at: 1)
        #expect(frame.pixels.size == PixelSize(width: 16, height: 16))
        #expect(frame.pixels.alphaMode == .premultiplied)
        #expect(frame.duration == 0.1)
        _ = try source.frame(at: 2)
        #expect(plan.cursors == 1)
        #expect(source.decodedFrameCount == 3)

        // Behind the cursor: a new one, and the old one's decodes still count.
        _ = try source.frame(at: 0)
        #expect(plan.cursors == 2)
        #expect(source.decodedFrameCount == 4)

        // A failure drops the cursor; the next request starts afresh and succeeds.
        #expect(throws: WebImageError.self) { try source.frame(at: 3) }
        #expect(try source.frame(at: 3).pixels.size == PixelSize(width: 16, height: 16))
        #expect(plan.cursors == 3)

        let error = #expect(throws: WebImageError.self) { try source.frame(at: 5) }
        #expect(error?.message == "Test frame 5 is out of range 0..<5")
    }

    @Test func aSingleCursorWithoutAMakerStaysAfterAFailure() throws {
        let source = FrameSource<ForwardCursor>(
            format: "Pages", frameCount: 3, loopCount: 0, storedDurations: [0.1, 0.1, 0.1],
            canvasSize: PixelSize(width: 32, height: 32), alphaMode: .straight,
            cursor: ForwardCursor(plan: Plan(failing: 1)), makeCursor: nil)
        #expect(throws: WebImageError.self) { try source.frame(at: 1) }
        #expect(try source.frame(at: 2).pixels == ImageFixtures.movingSquare(index: 2))
    }
}
