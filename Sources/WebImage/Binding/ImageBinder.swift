public import Foundation

/// The loads of one ``ImageTarget``, one per key (SDWebImage's per-view operation dictionary and
/// `sd_imageURL`): a new load for a key cancels the one before it, the URL last asked for is kept
/// per key, and when the binder goes (with its target) every load still running is cancelled.
///
/// A target stores one binder and hands it out through ``ImageTarget/imageBinder``; the loads
/// themselves start with ``ImageManager/load(_:into:key:placeholder:failureImage:options:transition:progress:completion:)``.
///
/// ```swift
/// final class Cell: ImageTarget {
///     let imageBinder = ImageBinder()
///     func setImage(_ image: Image?, for key: ImageBinder.Key, transition: ImageTransition?) { … }
/// }
/// manager.load(url, into: cell, placeholder: grey)
/// cell.imageURL()                // url
/// ```
@MainActor
public final class ImageBinder {
    private var operations: [Key: BindingOperation] = [:]
    private var urls: [Key: URL] = [:]

    /// An empty binder.
    public nonisolated init() {}

    isolated deinit {
        // The target is gone: stop its loads (their completions get `cancelled`).
        for operation in operations.values { operation.cancel() }
    }

    /// The URL last bound to `key`: set when a load starts, kept when it fails, nil after a load
    /// of no URL.
    public func url(for key: Key = .image) -> URL? { urls[key] }

    /// Whether a load is running for `key`.
    public func isLoading(_ key: Key = .image) -> Bool { operations[key] != nil }

    /// The keys with a running load.
    public var loadingKeys: Set<Key> { Set(operations.keys) }

    /// Cancels the load running for `key`: its completion gets ``WebImageError/Code/cancelled``,
    /// the indicator stops, and its result is never shown.
    public func cancel(_ key: Key = .image) {
        guard let operation = operations.removeValue(forKey: key) else { return }
        operation.cancel()
    }

    /// Cancels every running load of this target.
    public func cancelAll() {
        for key in Array(operations.keys) { cancel(key) }
    }

    // MARK: Binding side

    func operation(for key: Key) -> BindingOperation? { operations[key] }

    func setURL(_ url: URL?, for key: Key) { urls[key] = url }

    func begin(_ operation: BindingOperation, for key: Key) { operations[key] = operation }

    /// Forgets `operation` when it is still the one for its key (it ended).
    func end(_ operation: BindingOperation) {
        if operations[operation.key] === operation { operations[operation.key] = nil }
    }
}

extension ImageBinder {
    /// Which image of a target a load is for: a target shows one image per key (SDWebImage's
    /// operation keys: the image, the highlighted image, a button's background per state).
    ///
    /// ```swift
    /// manager.load(pressedURL, into: button, key: .highlighted)
    /// manager.load(badgeURL, into: cell, key: "badge")
    /// ```
    public struct Key: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The key's name.
        public let name: String
        /// The key `name`.
        public init(_ name: String) { self.name = name }
        /// The key `value`.
        public init(stringLiteral value: String) { name = value }
        /// The main image.
        public static let image = Key("image")
        /// The highlighted (pressed) image.
        public static let highlighted = Key("highlighted")
        /// A background image.
        public static let background = Key("background")
        public var description: String { name }
    }

    /// The binding's switches: the view-level `SDWebImageOptions`.
    ///
    /// ```swift
    /// manager.load(url, into: view, placeholder: grey, options: [.delayPlaceholder, .forceTransition])
    /// ```
    public struct Options: OptionSet, Hashable, Sendable {
        /// The option bits.
        public let rawValue: UInt8
        /// Options from their raw bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Show the placeholder only if the load fails, not while it runs.
        public static let delayPlaceholder = Options(rawValue: 1 << 0)
        /// Never set the loaded image on the target: the completion handler gets it and decides.
        public static let avoidAutoSetImage = Options(rawValue: 1 << 1)
        /// Apply the transition to memory hits too.
        public static let forceTransition = Options(rawValue: 1 << 2)
    }
}
