import Foundation

/// Drops the AC scans of a progressive JPEG that a scaled decode would not use.
///
/// At a DCT scale where libjpeg turns a component's 8×8 block into one pixel, it reads only the
/// block's DC coefficient: the AC scans of that component (most of a progressive file's bytes, and
/// most of its entropy-decoding time) are decoded and thrown away. Leaving them out of the stream
/// gives the same pixels, provided block smoothing (which would guess the missing coefficients) is
/// off. The filter only copies bytes; libjpeg still parses and checks everything it keeps.
///
/// The filter is conservative: anything but a well-formed, complete, Huffman-coded progressive
/// stream (SOF2) whose scans bring every coefficient of every component to full precision gives
/// nil, and the caller decodes the original bytes. So truncated and structurally damaged files fail
/// as they always did, and files with a broken progression (which libjpeg decodes with block
/// smoothing, guessing what never arrived) keep libjpeg's guesses; so do files with more scans than
/// ``JPEGDecompression/maxScans``, which the full decode refuses even when the extra scans are ones
/// the filter would leave out. Damage inside the entropy data of a scan that is left out is never
/// read.
enum JPEGScanFilter {
    /// `bytes` without the AC scans (spectral start above 0) of the components in `dropping`, or
    /// nil when the stream is not one the filter handles or nothing would be dropped.
    static func droppingACScans(of dropping: Set<UInt8>, in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard !dropping.isEmpty, bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / 2)
        output.append(contentsOf: bytes[0..<2])
        var position = 2
        var progression: Progression?
        var dropped = 0
        var scans = 0
        while true {
            // A marker: 0xFF, optional fill bytes (more 0xFF), then the code.
            guard position < bytes.count, bytes[position] == 0xFF else { return nil }
            var codeIndex = position + 1
            while codeIndex < bytes.count, bytes[codeIndex] == 0xFF { codeIndex += 1 }
            guard codeIndex < bytes.count else { return nil }
            let code = bytes[codeIndex]
            if code == 0xD9 {
                output.append(contentsOf: [0xFF, 0xD9])
                guard let progression, progression.isComplete, dropped > 0 else { return nil }
                return output
            }
            // Stand-alone markers (RST, TEM, a second SOI) have no place between segments.
            guard code != 0x00, code != 0x01, !(0xD0...0xD8).contains(code), codeIndex + 2 < bytes.count else { return nil }
            let length = Int(bytes[codeIndex + 1]) << 8 | Int(bytes[codeIndex + 2])
            let segmentEnd = codeIndex + 1 + length
            guard length >= 2, segmentEnd <= bytes.count else { return nil }
            if (0xC0...0xCF).contains(code), code != 0xC4, code != 0xC8, code != 0xCC {
                // A frame header: only one, progressive Huffman (SOF2), is filtered.
                guard code == 0xC2, progression == nil,
                    let frame = Progression(frameHeader: bytes, codeIndex: codeIndex, length: length)
                else { return nil }
                progression = frame
            }
            guard code == 0xDA else {
                output.append(contentsOf: bytes[codeIndex - 1..<segmentEnd])
                position = segmentEnd
                continue
            }
            scans += 1
            guard scans <= Int(JPEGDecompression.maxScans), let scan = scanHeader(bytes, codeIndex: codeIndex, length: length),
                progression?.apply(scan) == true, let dataEnd = entropyDataEnd(bytes, from: segmentEnd)
            else { return nil }
            if scan.spectralStart > 0, scan.components.allSatisfy(dropping.contains) {
                dropped += 1
            } else {
                output.append(contentsOf: bytes[codeIndex - 1..<dataEnd])
            }
            position = dataEnd
        }
    }

    /// What a scan header (SOS) says: its components, spectral band and successive approximation.
    struct Scan {
        var components: [UInt8]
        var spectralStart: Int
        var spectralEnd: Int
        var high: Int
        var low: Int
    }

    /// The scan header (SOS) whose code is at `codeIndex`.
    private static func scanHeader(_ bytes: UnsafeRawBufferPointer, codeIndex: Int, length: Int) -> Scan? {
        // The smallest header with a component; the caller checked that `length` bytes follow.
        guard length >= 8 else { return nil }
        let count = Int(bytes[codeIndex + 3])
        guard (1...4).contains(count), length == 6 + 2 * count else { return nil }
        let components = (0..<count).map { bytes[codeIndex + 4 + 2 * $0] }
        let parameters = codeIndex + 4 + 2 * count
        return Scan(
            components: components, spectralStart: Int(bytes[parameters]), spectralEnd: Int(bytes[parameters + 1]),
            high: Int(bytes[parameters + 2] >> 4), low: Int(bytes[parameters + 2] & 0x0F))
    }

    /// The precision each coefficient of each component has reached, scan by scan, as libjpeg
    /// tracks it: -1 before its first scan, then the point transform (Al) of the last one.
    struct Progression {
        private var bits: [UInt8: [Int]] = [:]

        /// The frame's components, from its header (SOF2).
        init?(frameHeader bytes: UnsafeRawBufferPointer, codeIndex: Int, length: Int) {
            guard length >= 8 else { return nil }
            let count = Int(bytes[codeIndex + 8])
            guard (1...4).contains(count), length == 8 + 3 * count else { return nil }
            for index in 0..<count {
                let identifier = bytes[codeIndex + 9 + 3 * index]
                guard bits[identifier] == nil else { return nil }
                bits[identifier] = Array(repeating: -1, count: 64)
            }
        }

        /// Records `scan`; false when it breaks the progression rules (libjpeg would warn, or fail).
        mutating func apply(_ scan: Scan) -> Bool {
            let isDC = scan.spectralStart == 0
            guard scan.spectralEnd <= 63, scan.spectralStart <= scan.spectralEnd, !isDC || scan.spectralEnd == 0,
                isDC || scan.components.count == 1, scan.high == 0 || scan.low == scan.high - 1, scan.low <= 13
            else { return false }
            for component in scan.components {
                guard var coefficients = bits[component], isDC || coefficients[0] >= 0 else { return false }
                for index in scan.spectralStart...scan.spectralEnd {
                    // A first scan of a coefficient, or the refinement of exactly the last one.
                    guard scan.high == 0 ? coefficients[index] == -1 : coefficients[index] == scan.high else { return false }
                    coefficients[index] = scan.low
                }
                bits[component] = coefficients
            }
            return true
        }

        /// Every coefficient of every component has arrived at full precision.
        var isComplete: Bool { bits.values.allSatisfy { $0.allSatisfy { $0 == 0 } } }
    }

    /// Where the entropy-coded data starting at `start` ends: the next marker that is not a
    /// stuffed 0xFF00 or a restart marker; nil when the data runs out first (a truncated file).
    private static func entropyDataEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = start
        while index + 1 < bytes.count {
            // memchr: the entropy data is most of the file, and 0xFF is rare in it.
            guard let found = memchr(base + index, 0xFF, bytes.count - index) else { return nil }
            index = base.distance(to: UnsafeRawPointer(found))
            guard index + 1 < bytes.count else { return nil }
            let next = bytes[index + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) {
                index += 2
            } else if next == 0xFF {
                index += 1
            } else {
                return index
            }
        }
        return nil
    }
}
