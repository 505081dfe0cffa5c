public import Foundation
public import WebImage

extension GIFCoder: ImagePartialAnimationDecoding {
    /// `data` itself: the decoder reads a truncated GIF as its complete frames.
    public func wholeFrames(in data: Data) -> Data? { data }
}
