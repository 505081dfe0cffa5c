public import WebImage
import Synchronization

/// A colour converter that gives decoders another converter's 16-bit transforms and keeps the
/// 16-bit samples they hand over: how tests get a high-bit-depth file's decoded samples for a
/// reference, and check whether a decode took the 16-bit path at all.
///
/// ```swift
/// let recorder = WideSampleRecorder(converting: LCMSColorConverter.shared)
/// let image = try PNGCoder(colorConverter: recorder).decode(data, options: ImageDecodingOptions())
/// let samples = try #require(recorder.samples(pixelCount: image.pixels.width * image.pixels.height))
/// ```
public final class WideSampleRecorder: ColorConverting {
    /// One call: where its first pixel went and its rows of 16-bit RGBA samples.
    struct Run {
        var address: UInt
        var rowPixels: Int
        var destinationRowBytes: Int
        var rows: [[UInt16]]
    }

    private let base: any ColorConverting
    private let runs = Mutex<[Run]>([])
    private let requests = Mutex(0)

    /// A recorder passing every conversion to `base`.
    public init(converting base: any ColorConverting) {
        self.base = base
    }

    /// How many times decoders asked for a 16-bit transform (whether or not one was given).
    public var wideTransformRequests: Int { requests.withLock { $0 } }

    /// How many conversions decoders asked the 16-bit transforms for.
    public var conversionCount: Int { runs.withLock { $0.count } }

    /// The 16-bit RGBA samples of an image of `pixelCount` pixels, put together from every run in
    /// the place the decoder wrote it; nil when not every pixel was handed over (or none was).
    public func samples(pixelCount: Int) -> [UInt16]? {
        let all = runs.withLock { $0 }
        guard let start = all.map(\.address).min() else { return nil }
        var image = [UInt16](repeating: 0, count: pixelCount * 4)
        var covered = 0
        for run in all {
            for (index, row) in run.rows.enumerated() {
                let first = Int(run.address - start) / 4 + index * run.destinationRowBytes / 4
                guard first >= 0, first + run.rowPixels <= pixelCount else { return nil }
                image.replaceSubrange(first * 4..<(first + run.rowPixels) * 4, with: row)
                covered += run.rowPixels
            }
        }
        return covered == pixelCount ? image : nil
    }

    public func convertToSRGB(_ image: Image) throws -> Image { try base.convertToSRGB(image) }

    public func wideTransform(for profile: ColorProfile) -> (any WideColorTransform)? {
        requests.withLock { $0 += 1 }
        return base.wideTransform(for: profile).map { Recording(base: $0, recorder: self) }
    }

    fileprivate func record(_ run: Run) { runs.withLock { $0.append(run) } }

    /// The base transform, with every call's samples kept.
    private struct Recording: WideColorTransform {
        let base: any WideColorTransform
        let recorder: WideSampleRecorder

        func convert(
            _ source: UnsafeRawPointer, sourceRowBytes: Int, into destination: UnsafeMutableRawPointer, destinationRowBytes: Int,
            width: Int, rows: Int
        ) {
            let kept = (0..<rows).map { row in
                (0..<width * 4).map { source.loadUnaligned(fromByteOffset: row * sourceRowBytes + $0 * 2, as: UInt16.self) }
            }
            recorder.record(
                Run(address: UInt(bitPattern: destination), rowPixels: width, destinationRowBytes: destinationRowBytes, rows: kept))
            base.convert(
                source, sourceRowBytes: sourceRowBytes, into: destination, destinationRowBytes: destinationRowBytes, width: width,
                rows: rows)
        }
    }
}
