public import Foundation
public import WebImage

extension PNGCoder: ImagePartialAnimationDecoding {
    /// An APNG still arriving, cut before the frame control (`fcTL`) of its first incomplete
    /// frame, with `acTL` counting the complete frames and an `IEND` added; `data` itself once
    /// `IEND` has arrived; nil for a still PNG or before the first frame is complete (a frame is
    /// complete when the next one's `fcTL` has arrived).
    public func wholeFrames(in data: Data) -> Data? {
        data.withUnsafeBytes { bytes -> Data? in
            guard bytes.count >= pngSignature.count, bytes.prefix(pngSignature.count).elementsEqual(pngSignature) else {
                return nil
            }
            let chunks = PNGChunkReader(bytes: bytes).chunks()
            if chunks.last?.type == PNGChunk.IEND { return data }
            guard chunks.contains(where: { $0.type == PNGChunk.acTL && $0.length >= 8 }) else { return nil }
            let starts = chunks.filter { $0.type == PNGChunk.fcTL }
            guard starts.count >= 2 else { return nil }
            let complete = starts.count - 1
            let cut = starts[complete].offset
            var writer = PNGChunkWriter()
            writer.appendSignature()
            for chunk in chunks where chunk.offset < cut {
                if chunk.type == PNGChunk.acTL {
                    var control = [UInt8](bytes[chunk.dataRange])
                    var frameCount: [UInt8] = []
                    frameCount.appendUInt32BE(UInt32(complete))
                    control.replaceSubrange(0..<4, with: frameCount)
                    writer.append(type: PNGChunk.acTL, data: control)
                } else {
                    writer.appendRaw(UnsafeRawBufferPointer(rebasing: bytes[chunk.fullRange]))
                }
            }
            writer.append(type: PNGChunk.IEND, data: [UInt8]())
            return Data(writer.bytes)
        }
    }
}
