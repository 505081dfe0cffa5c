public import Foundation
public import WebImage

/// Fixtures for progressive (incremental) decoding: detailed pictures, whose later JPEG scans and
/// PNG passes change what is shown, and where a file's bytes can be cut so that each part completes
/// one more step.
///
/// ```swift
/// let pixels = ProgressiveFixtures.texture(width: 256, height: 192)
/// let parts = ProgressiveFixtures.jpegScanParts(progressiveJPEG)   // one part per scan
/// ```
public enum ProgressiveFixtures {
    /// An opaque picture with gradients, stripes and deterministic noise: detail in every frequency
    /// band, so every scan of a progressive JPEG carries data.
    public static func texture(width: Int, height: Int, seed: UInt32 = 1) -> PixelBuffer {
        var state = seed == 0 ? 1 : seed
        return PixelBuffer(width: width, height: height, alphaMode: .straight) { out in
            for y in 0..<height {
                for x in 0..<width {
                    // xorshift32: the same noise on every platform.
                    state ^= state << 13
                    state ^= state >> 17
                    state ^= state << 5
                    let noise = Int(state & 0x3F)
                    let i = (y * width + x) * 4
                    let stripe = ((x / 4 + y / 6) % 2) * 60
                    out[i] = UInt8(clamping: x * 160 / max(1, width - 1) + noise)
                    out[i + 1] = UInt8(clamping: y * 160 / max(1, height - 1) + stripe)
                    out[i + 2] = UInt8(clamping: 200 - (x + y) * 120 / max(1, width + height - 2) + noise / 2)
                    out[i + 3] = 255
                }
            }
        }
    }

    /// The offsets of a JPEG's start-of-scan (SOS) markers, in order: walks the marker segments and
    /// skips each scan's entropy-coded data (stuffed `FF 00` bytes and restart markers).
    public static func jpegScanStarts(_ data: Data) -> [Int] {
        let bytes = [UInt8](data)
        var starts: [Int] = []
        var i = 2
        while i + 3 < bytes.count {
            guard bytes[i] == 0xFF else { break }
            let marker = bytes[i + 1]
            if marker == 0xFF {
                i += 1
                continue
            }
            if marker == 0xD9 { break }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker == 0xDA {
                starts.append(i)
                var j = i + 2 + length
                while j + 1 < bytes.count {
                    if bytes[j] == 0xFF, bytes[j + 1] != 0x00, !(0xD0...0xD7).contains(bytes[j + 1]) { break }
                    j += 1
                }
                i = j
            } else {
                i += 2 + length
            }
        }
        return starts
    }

    /// A JPEG cut into one part per scan: the first part holds the header and the first scan, each
    /// later part the next scan; every part but the last ends with the header of the scan after
    /// it (the last with the end marker). A decoder knows a scan is over only when it meets the
    /// marker that follows it, so fed in order, each part completes exactly one more scan.
    public static func jpegScanParts(_ data: Data) -> [Data] {
        let starts = jpegScanStarts(data)
        guard starts.count > 1 else { return [data] }
        let bytes = [UInt8](data)
        var cuts = starts.dropFirst().map { start in start + 2 + (Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])) }
        cuts.append(data.count)
        var parts: [Data] = []
        var from = 0
        for cut in cuts {
            parts.append(data.subdata(in: from..<cut))
            from = cut
        }
        return parts
    }

    /// `data` cut where a fresh `decoder` shows a new image: fed byte by byte, each part ends with
    /// the byte after which ``ImageIncrementalDecoding/currentImage()`` returns one (the bytes after
    /// the last such byte join the last part). Fed in order, in any chunks, each part gives exactly
    /// one more image: a deterministic script for a throttled server.
    public static func previewParts(_ data: Data, decoder: any ImageIncrementalDecoding) throws -> [Data] {
        var parts: [Data] = []
        var from = 0
        for offset in 0..<data.count {
            try decoder.append(data.subdata(in: offset..<offset + 1))
            if try decoder.currentImage() != nil {
                parts.append(data.subdata(in: from..<offset + 1))
                from = offset + 1
            }
        }
        if from < data.count {
            if parts.isEmpty { parts.append(Data()) }
            parts[parts.count - 1].append(data.subdata(in: from..<data.count))
        }
        return parts
    }

    /// `data` in pieces of random sizes from 1 to `maximum` bytes (deterministic for a seed).
    public static func randomChunks(_ data: Data, maximum: Int, seed: UInt64 = 7) -> [Data] {
        var generator = SplitMix64(seed: seed)
        var chunks: [Data] = []
        var offset = 0
        while offset < data.count {
            let size = 1 + Int(generator.next() % UInt64(max(1, maximum)))
            let end = min(data.count, offset + size)
            chunks.append(data.subdata(in: offset..<end))
            offset = end
        }
        return chunks
    }

    /// Feeds every chunk to `decoder` and returns each image it shows along the way (the last one is
    /// the final image when the decoder completes).
    public static func feed(_ chunks: [Data], to decoder: any ImageIncrementalDecoding) throws -> [Image] {
        var images: [Image] = []
        for chunk in chunks {
            try decoder.append(chunk)
            if let image = try decoder.currentImage() { images.append(image) }
        }
        return images
    }
}

/// A tiny deterministic generator (SplitMix64): chunk sizes here, random test images in the tests.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
