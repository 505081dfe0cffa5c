/// An activity or progress indicator a target shows while it loads (SDWebImage's
/// `SDWebImageIndicator`): started when a load goes to the cache's slower tiers or the network,
/// fed the download's fraction, stopped when the load ends in any way.
///
/// ```swift
/// final class Spinner: ImageIndicator {
///     func startAnimatingIndicator() { isHidden = false }
///     func stopAnimatingIndicator() { isHidden = true }
///     func updateIndicatorProgress(_ fraction: Double) { bar.value = fraction }
/// }
/// ```
@MainActor
public protocol ImageIndicator: AnyObject {
    /// A load started: show the indicator.
    func startAnimatingIndicator()
    /// The load ended (image, failure or cancel): hide the indicator.
    func stopAnimatingIndicator()
    /// The download reached `fraction` (0...1) of its declared length; 1 just before a successful
    /// end. Not called while the length is unknown.
    func updateIndicatorProgress(_ fraction: Double)
}

extension ImageIndicator {
    /// An activity indicator ignores progress.
    public func updateIndicatorProgress(_ fraction: Double) {}
}
