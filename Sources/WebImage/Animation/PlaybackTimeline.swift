/// The order and timing of one loop of an animation in a playback mode: which frame each step
/// shows and when each step starts, in media time (nanoseconds at rate 1, integers so that frame
/// boundaries are exact). Pure: no clock, no state.
///
/// One loop, for frames 0…n−1 (n ≥ 2):
/// - `.normal`: 0, 1, …, n−1 (n steps)
/// - `.reverse`: n−1, …, 1, 0 (n steps)
/// - `.bounce`: 0, 1, …, n−1, n−2, …, 1 (2n−2 steps; the ends are not repeated, and the next loop
///   starts at 0)
/// - `.reversedBounce`: n−1, …, 0, 1, …, n−2 (2n−2 steps; the next loop starts at n−1)
///
/// When the last loop ends, playback rests on the mode's rest frame: the last step of the loop
/// for `.normal` and `.reverse` (already shown), and the first frame of the loop for the bounce
/// modes (shown once more, so that a bounce comes back to where it started).
struct PlaybackTimeline: Sendable {
    /// The frame each step shows.
    let steps: [Int]
    /// `starts[i]` is when step `i` starts within a loop (ns); `starts[steps.count]` is the loop's length.
    let starts: [Int64]
    let mode: AnimatedImagePlayer.PlaybackMode

    init(durations: [Double], mode: AnimatedImagePlayer.PlaybackMode) {
        let n = durations.count
        var steps: [Int]
        switch mode {
        case .normal: steps = Array(0..<n)
        case .reverse: steps = Array((0..<n).reversed())
        case .bounce: steps = Array(0..<n) + (n > 2 ? Array((1..<n - 1).reversed()) : [])
        case .reversedBounce: steps = Array((0..<n).reversed()) + (n > 2 ? Array(1..<n - 1) : [])
        }
        var starts: [Int64] = [0]
        starts.reserveCapacity(steps.count + 1)
        for frame in steps {
            starts.append(starts[starts.count - 1] + Self.nanoseconds(Self.playedDuration(durations[frame])))
        }
        self.steps = steps
        self.starts = starts
        self.mode = mode
    }

    /// How long a frame whose source says `duration` seconds is shown at rate 1:
    /// ``FrameDurationRule`` once more, for sources that do not apply it themselves (generated
    /// frames of 0 ms would otherwise make a loop of no length).
    static func playedDuration(_ duration: Double) -> Double { FrameDurationRule.played(duration) }

    /// Seconds as whole nanoseconds (at most about 292 years).
    static func nanoseconds(_ seconds: Double) -> Int64 {
        Int64(min(seconds * 1e9, 9.2e18).rounded())
    }

    /// The length of one loop in nanoseconds (always > 0).
    var loopLength: Int64 { starts[steps.count] }

    /// The step that is on screen `offset` nanoseconds into a loop (0 ≤ offset < ``loopLength``).
    func step(at offset: Int64) -> Int {
        // The last start not after `offset`: binary search over the sorted starts.
        var low = 0, high = steps.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The first step that shows `frame` (frames appear twice in the bounce modes).
    func firstStep(showing frame: Int) -> Int {
        steps.firstIndex(of: frame) ?? 0
    }

    /// The step playback rests on after the last loop.
    var restStep: Int { restsOnFirstStep ? 0 : steps.count - 1 }

    /// Whether the rest step is shown again after the last loop (bounce modes) rather than
    /// being the step already on screen.
    var restsOnFirstStep: Bool { (mode == .bounce || mode == .reversedBounce) && steps.count > 1 }
}
