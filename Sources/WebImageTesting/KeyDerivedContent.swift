public import Foundation

/// Bytes derived from a cache key alone, so that a checker in another process knows exactly
/// what any entry must read back as (used by the disk cache's crash and two-process tests).
///
/// ```swift
/// let bytes = KeyDerivedContent.data(forKey: "entry-17")   // same bytes every time, 256 B…16 KiB
/// ```
public enum KeyDerivedContent {
    /// The content for `key`: between `minimumSize` and `maximumSize` bytes, pseudo-random.
    public static func data(forKey key: String, minimumSize: Int = 256, maximumSize: Int = 16 * 1024) -> Data {
        var seed: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key.utf8 {
            seed ^= UInt64(byte)
            seed &*= 0x0000_0100_0000_01B3
        }
        let span = UInt64(max(1, maximumSize - minimumSize + 1))
        let size = minimumSize + Int(seed % span)
        var state = seed | 1
        var bytes = [UInt8](repeating: 0, count: size)
        for index in 0..<size {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        return Data(bytes)
    }
}
