public import Foundation

/// Something that shows images: a view, a terminal cell, a test double. The view-independent
/// half of SDWebImage's `UIView+WebCache`: ``ImageManager/load(_:into:key:placeholder:failureImage:options:transition:progress:completion:)``
/// applies the rules (operation keys, placeholder, transition, indicator, current URL), the target
/// only shows what it is given.
///
/// Targets live on the main actor, as views do; every call into them comes from there. A target
/// owns one ``ImageBinder`` (a stored `let`): when the target goes, its binder goes and cancels
/// every load still running for it.
///
/// Adapters are a few lines each. A UIKit one (a stored binder needs an associated object there,
/// or a subclass):
///
/// ```swift
/// final class WebImageView: UIImageView, ImageTarget {
///     let imageBinder = ImageBinder()
///     func setImage(_ image: Image?, for key: ImageBinder.Key, transition: ImageTransition?) {
///         let ui = image.map { UIImage(cgImage: $0.makeCGImage()) }
///         if key == .highlighted { highlightedImage = ui } else { self.image = ui }
///         if let transition { layer.add(CATransition(transition), forKey: nil) }
///     }
/// }
/// ```
///
/// `NSImageView` is the same with `NSImage`; a SwiftUI view keeps a small `@Observable` target
/// object whose `image` property the view body reads.
@MainActor
public protocol ImageTarget: AnyObject {
    /// The binder that keeps this target's loads, one per target: a stored `let imageBinder = ImageBinder()`.
    var imageBinder: ImageBinder { get }

    /// The indicator to run while a load is in flight; nil (the default) shows none.
    var imageIndicator: (any ImageIndicator)? { get }

    /// Shows `image` in the slot `key` names (``ImageBinder/Key/image`` unless the caller chose a
    /// secondary key such as ``ImageBinder/Key/highlighted``); nil clears the slot. Apply
    /// `transition` when it is not nil.
    func setImage(_ image: Image?, for key: ImageBinder.Key, transition: ImageTransition?)
}

extension ImageTarget {
    /// No indicator.
    public var imageIndicator: (any ImageIndicator)? { nil }

    /// The URL last bound to `key` (SDWebImage's `sd_imageURL`): set when a load starts, kept
    /// when it fails, nil after a load of no URL.
    public func imageURL(for key: ImageBinder.Key = .image) -> URL? { imageBinder.url(for: key) }

    /// Cancels the load running for `key`, if any: its completion gets
    /// ``WebImageError/Code/cancelled`` and its result is never shown.
    public func cancelImageLoad(for key: ImageBinder.Key = .image) { imageBinder.cancel(key) }
}
