import Foundation

/// When a download's next preview is due: at most one every `interval` (the manager's
/// ``ImageManager/Configuration/progressiveInterval``). A pure value: times are given to it.
struct PreviewSchedule: Sendable, Hashable {
    /// The shortest time between two previews; zero or less: no wait.
    let interval: Duration
    /// When the last preview was delivered, on the caller's time line.
    private(set) var lastDelivery: Duration?

    init(interval: Duration) {
        self.interval = interval
    }

    /// Whether a preview may be delivered at `now`.
    func isDue(at now: Duration) -> Bool {
        guard let lastDelivery, interval > .zero else { return true }
        return now - lastDelivery >= interval
    }

    /// Records a preview delivered at `now`.
    mutating func delivered(at now: Duration) {
        lastDelivery = now
    }
}

/// One download's previews: its incremental decoder, fed only the bytes it has not seen, and the
/// schedule. The manager makes one per shared download, so tasks that share a download share its
/// decoder and its previews. A decoder failure stops the previews (the final decode reports the
/// error).
final class ProgressivePreviewer {
    private let decoder: any ImageIncrementalDecoding
    private var schedule: PreviewSchedule
    private let elapsed: () -> Duration
    private var fedBytes = 0
    private var failed = false

    init(decoder: any ImageIncrementalDecoding, interval: Duration, clock: any Clock<Duration>) {
        self.decoder = decoder
        schedule = PreviewSchedule(interval: interval)
        elapsed = Self.stopwatch(clock)
    }

    /// The time on the previewer's clock, for ``preview(for:arrivedAt:)``.
    func now() -> Duration { elapsed() }

    /// Feeds the new end of `partial` (every byte so far) and returns a preview when one is due at
    /// `arrival` (when the bytes arrived, read before their progress is reported, so that the
    /// decision never depends on how long the hand-over took) and the bytes show more than the
    /// last one.
    func preview(for partial: Data, arrivedAt arrival: Duration) -> Image? {
        guard !failed, partial.count > fedBytes else { return nil }
        let new = partial.subdata(in: partial.startIndex + fedBytes..<partial.endIndex)
        fedBytes = partial.count
        do {
            try decoder.append(new)
            let now = arrival
            guard schedule.isDue(at: now), let image = try decoder.currentImage() else { return nil }
            schedule.delivered(at: now)
            return image
        } catch {
            failed = true
            return nil
        }
    }

    /// The time since now on `clock`.
    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
