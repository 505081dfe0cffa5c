import Synchronization
import Testing
import WebImageTesting

@testable import WebImage

/// `Resampler.resample(…, parallelism:)`: bands of rows on several threads give the very bytes of
/// one thread, and the bands cover every row exactly once.
@Suite("Resampler: one large resize on several threads")
struct ResamplerParallelTests {
    /// Random translucent pixels (straight alpha), the same for a seed.
    static func noise(width: Int, height: Int, seed: UInt64) -> PixelBuffer {
        var generator = SplitMix64(seed: seed)
        return PixelBuffer(width: width, height: height, alphaMode: .straight) { out in
            for i in out.indices { out[i] = UInt8(truncatingIfNeeded: generator.next()) }
        }
    }

    @Test(
        "Split passes equal the single-threaded result",
        arguments: [
            (PixelSize(width: 1201, height: 907), PixelSize(width: 300, height: 227)),
            (PixelSize(width: 640, height: 480), PixelSize(width: 1280, height: 97)),
            (PixelSize(width: 333, height: 1999), PixelSize(width: 111, height: 1500)),
        ])
    func splitEqualsSerial(source: PixelSize, target: PixelSize) {
        let pixels = Self.noise(width: source.width, height: source.height, seed: UInt64(source.width))
        for gap in [nil, Resampler.defaultReducingGap] {
            let serial = Resampler.resample(pixels, to: target, reducingGap: gap)
            for parallelism in [2, 3, 8] {
                let split = Resampler.resample(pixels, to: target, reducingGap: gap, parallelism: parallelism)
                #expect(split == serial, "\(source) → \(target), gap \(String(describing: gap)), \(parallelism) threads")
            }
        }
    }

    @Test func rangesCoverEveryRowOnceAndSmallWorkStaysOnOneRange() {
        for (count, parallelism) in [(1, 4), (7, 3), (1000, 2), (1001, 8)] {
            let seen = Mutex([Int](repeating: 0, count: count))
            let ranges = Mutex(0)
            Resampler.forEachRowRange(count, work: Resampler.minimumWorkPerRange, parallelism: parallelism) { rows in
                ranges.withLock { $0 += 1 }
                seen.withLock { seen in for row in rows { seen[row] += 1 } }
            }
            #expect(seen.withLock { $0 } == [Int](repeating: 1, count: count), "\(count) rows, \(parallelism)")
            #expect(ranges.withLock { $0 } == min(count, parallelism))
        }
        let ranges = Mutex(0)
        Resampler.forEachRowRange(100, work: 10, parallelism: 4) { _ in ranges.withLock { $0 += 1 } }
        #expect(ranges.withLock { $0 } == 1)
    }
}
