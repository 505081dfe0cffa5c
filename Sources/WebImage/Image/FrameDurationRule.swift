/// How long an animation frame is shown, given the delay its file stores: one rule for GIF, APNG
/// and animated WebP.
///
/// A stored delay of 10 ms or less (0 included) is shown for 100 ms, as browsers (Chromium,
/// Firefox, Safari) and SDWebImage do: such files were made for players that ignored tiny delays,
/// and playing them as fast as possible would spin the CPU. Longer delays play as stored. A
/// negative or non-finite value (a hand-made ``AnimatedImageSource``) counts as 0.
///
/// Decoders report the played value through ``AnimatedImageSource/duration(at:)`` and the raw
/// container value through ``AnimatedImageSource/storedDuration(at:)``; encoders write the stored
/// value, so a 0-delay GIF frame stays 0 after a transcode.
///
/// ```swift
/// FrameDurationRule.played(0)      // 0.1
/// FrameDurationRule.played(0.01)   // 0.1
/// FrameDurationRule.played(0.02)   // 0.02
/// ```
public enum FrameDurationRule {
    /// Stored delays up to this many seconds (10 ms) are replaced.
    public static let shortestHonoured: Double = 0.010
    /// What a replaced delay plays as, in seconds (100 ms).
    public static let replacement: Double = 0.100

    /// The duration a frame whose file stores `stored` seconds is shown for.
    public static func played(_ stored: Double) -> Double {
        isReplaced(stored) ? replacement : stored
    }

    /// Whether a stored delay of `stored` seconds is shown for ``replacement`` instead.
    ///
    /// Fractions that equal 10 ms (APNG's 1/100, 10/1000) count as 10 ms despite floating-point
    /// rounding.
    public static func isReplaced(_ stored: Double) -> Bool {
        !stored.isFinite || stored <= shortestHonoured + 1e-9
    }
}
