public import Foundation
public import WebImage

extension WebPCoder: ImagePartialAnimationDecoding {
    /// An animated WebP still arriving, cut to its complete chunks (so its complete `ANMF`
    /// frames) with the RIFF size rewritten to match; `data` itself once the RIFF container is
    /// complete; nil for a still image or before the first frame is complete.
    public func wholeFrames(in data: Data) -> Data? {
        data.withUnsafeBytes { bytes -> Data? in
            guard bytes.count >= 12, WebPContainerCheck.tag(bytes, at: 0) == "RIFF",
                WebPContainerCheck.tag(bytes, at: 8) == "WEBP"
            else { return nil }
            if WebPContainerCheck.uint32(bytes, at: 4) <= bytes.count - 8 { return data }
            var offset = 12
            var animated = false
            var frames = 0
            while offset + 8 <= bytes.count {
                let size = WebPContainerCheck.uint32(bytes, at: offset + 4)
                let padded = size + (size & 1)
                guard padded <= bytes.count - offset - 8 else { break }
                switch WebPContainerCheck.tag(bytes, at: offset) {
                case "VP8X": animated = size >= 1 && bytes[offset + 8] & 0x02 != 0
                case "ANMF": frames += 1
                default: break
                }
                offset += 8 + padded
            }
            guard animated, frames > 0 else { return nil }
            var cut = [UInt8](bytes[0..<offset])
            let riffSize = UInt32(offset - 8)
            for i in 0..<4 { cut[4 + i] = UInt8(truncatingIfNeeded: riffSize >> (8 * UInt32(i))) }
            return Data(cut)
        }
    }
}
