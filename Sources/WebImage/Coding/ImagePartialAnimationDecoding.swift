public import Foundation

/// A decoder that can cut the first bytes of an animation still arriving to its whole frames,
/// for ``ProgressiveAnimation``.
///
/// ```swift
/// if let whole = coders.wholeFrames(in: firstBytes) { let partial = try coders.decode(whole) }
/// ```
public protocol ImagePartialAnimationDecoding: ImageDecoding {
    /// A file this decoder reads made of the frames complete in `data` (the first bytes of a file
    /// it recognises): `data` itself when it reads truncated files as their complete frames;
    /// nil when no frame is complete yet.
    func wholeFrames(in data: Data) -> Data?
}

extension ImageCodersManager: ImagePartialAnimationDecoding {
    /// The whole frames of `data` as the last registered coder that recognises it cuts them; nil
    /// when no coder recognises the bytes yet or the one that does cannot cut them.
    public func wholeFrames(in data: Data) -> Data? {
        guard let coder = coders.last(where: { $0.canDecode(data) }) else { return nil }
        return (coder as? any ImagePartialAnimationDecoding)?.wholeFrames(in: data)
    }
}
