/// How a target brings in a newly loaded image (SDWebImage's `SDWebImageTransition`), as data:
/// the target decides how to draw it (a `CATransition`, a SwiftUI `.transition`, a terminal fade).
///
/// A binding applies the transition only to images that did not come from the memory cache
/// (a memory hit shows at once) unless ``ImageBinder/Options/forceTransition`` is set.
///
/// ```swift
/// manager.load(url, into: view, transition: .fade(duration: .milliseconds(300)))
/// ```
public struct ImageTransition: Sendable, Hashable {
    /// The kind of animation.
    public enum Kind: Sendable, Hashable {
        /// Cross-dissolve from the old image.
        case fade
        /// Flip around the vertical axis, from the left.
        case flipFromLeft
        /// Flip around the vertical axis, from the right.
        case flipFromRight
        /// Flip around the horizontal axis, from the top.
        case flipFromTop
        /// Flip around the horizontal axis, from the bottom.
        case flipFromBottom
        /// Curl the old image up.
        case curlUp
        /// Curl the new image down.
        case curlDown
        /// A kind the target knows by name.
        case custom(String)
    }

    /// The kind of animation.
    public var kind: Kind
    /// How long it lasts.
    public var duration: Duration

    /// A transition of `kind` lasting `duration`.
    public init(_ kind: Kind, duration: Duration = .milliseconds(500)) {
        self.kind = kind
        self.duration = duration
    }

    /// A cross-dissolve (half a second by default, as SDWebImage's `fadeTransition`).
    public static func fade(duration: Duration = .milliseconds(500)) -> ImageTransition {
        ImageTransition(.fade, duration: duration)
    }

    /// A flip from the left.
    public static func flipFromLeft(duration: Duration = .milliseconds(500)) -> ImageTransition {
        ImageTransition(.flipFromLeft, duration: duration)
    }

    /// A curl up.
    public static func curlUp(duration: Duration = .milliseconds(500)) -> ImageTransition {
        ImageTransition(.curlUp, duration: duration)
    }
}
