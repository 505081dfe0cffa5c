extension AnimatedImagePlayer {
    /// The order frames play in (SDWebImage's `SDAnimatedImagePlaybackMode`). For frames 0…3:
    ///
    /// | mode | one loop | after the last loop, rests on |
    /// |---|---|---|
    /// | ``normal`` | 0 1 2 3 | 3 |
    /// | ``reverse`` | 3 2 1 0 | 0 |
    /// | ``bounce`` | 0 1 2 3 2 1 | 0 (shown once more) |
    /// | ``reversedBounce`` | 3 2 1 0 1 2 | 3 (shown once more) |
    ///
    /// The ends of a bounce are never shown twice in a row: two loops of ``bounce`` show
    /// 0 1 2 3 2 1 0 1 2 3 2 1 0.
    public enum PlaybackMode: Sendable, Hashable, CaseIterable {
        /// First to last frame.
        case normal
        /// Last to first frame.
        case reverse
        /// First to last and back, without repeating the ends.
        case bounce
        /// Last to first and back, without repeating the ends.
        case reversedBounce
    }

    /// A frame to show now.
    public struct Frame: Sendable {
        /// The frame's index in the animation.
        public var index: Int
        /// Which loop it belongs to, from 0.
        public var loop: Int
        /// The whole canvas at this frame.
        public var pixels: PixelBuffer
        /// How long the frame lasts at rate 1, in seconds, as stored (see ``AnimatedImagePlayer``
        /// for the rule on very short durations).
        public var duration: Double
    }

    /// Something that happened during playback.
    public enum Event: Sendable, Equatable, CustomStringConvertible {
        /// A loop ended; `completedLoops` loops have been played (one event with the latest count
        /// when several loops went by while the player was late).
        case loopFinished(completedLoops: Int)
        /// The last loop ended: nothing more will play and both streams finish.
        case finished
        /// A frame failed to decode: both streams finish.
        case failed(WebImageError)

        public static func == (lhs: Event, rhs: Event) -> Bool {
            switch (lhs, rhs) {
            case (.loopFinished(let a), .loopFinished(let b)): a == b
            case (.finished, .finished): true
            case (.failed(let a), .failed(let b)): a.code == b.code && a.message == b.message
            default: false
            }
        }

        public var description: String {
            switch self {
            case .loopFinished(let loops): "loopFinished(\(loops))"
            case .finished: "finished"
            case .failed(let error): "failed(\(error))"
            }
        }
    }

    /// Where playback is now.
    public struct Status: Sendable, Equatable {
        /// The index of the frame last emitted, nil before the first.
        public var frameIndex: Int?
        /// The loop of the frame last emitted.
        public var loop: Int
        /// Whether ``AnimatedImagePlayer/play()`` is in effect (a rate of 0 still counts as playing).
        public var isPlaying: Bool
        /// Whether playback has ended (played to the end, failed, or the player was released).
        public var isFinished: Bool

        /// A status (for comparisons in tests).
        public init(frameIndex: Int?, loop: Int, isPlaying: Bool, isFinished: Bool) {
            self.frameIndex = frameIndex
            self.loop = loop
            self.isPlaying = isPlaying
            self.isFinished = isFinished
        }
    }
}
