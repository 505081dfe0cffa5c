public import Foundation
import WebImage

/// Decodes a GIF's images with our LZW decoder and with giflib, and reports the first place they
/// differ: the check behind the `gif-lzw-differential` fuzz target and the corpus comparison.
///
/// Every complete image (up to `maxFrames`) is decoded in file order through one session of each
/// decoder, as playback does, and then composited (disposal, transparency, palettes, clipping) as
/// playback shows it; then the first image is decoded as incremental decoding does while the file
/// arrives, from the file cut at several points inside it. Each decode must end the same way in
/// both: the same error code, or the same size, rows, indices and colour table; each composited
/// frame must have the same RGBA bytes.
///
/// ```swift
/// if let difference = GIFLZWDifferential.firstDifference(in: data) { fatalError(difference) }
/// ```
public enum GIFLZWDifferential {
    /// The first difference between the two decoders on `data`, or nil when every decode agrees
    /// (also when `data` is not a GIF with an image: there is nothing to compare).
    ///
    /// Images larger than `maxPixelCount` are refused by both before decoding.
    public static func firstDifference(in data: Data, maxPixelCount: Int = 4_000_000, maxFrames: Int = 32) -> String? {
        let bytes = [UInt8](data)
        return bytes.withUnsafeBytes { raw -> String? in
            guard let container = try? GIFContainer(parsing: raw, allowsPartialFirstFrame: true) else { return nil }
            let ours = GIFDecompressor.webImage.makeDecoder(retainedCapacity: container.canvasSize.pixelCount)
            let reference = GIFDecompressor.giflib.makeDecoder(retainedCapacity: container.canvasSize.pixelCount)
            for (index, record) in container.frames.prefix(maxFrames).enumerated() {
                let mine = decoded(ours, raw, container, record, maxPixelCount, partial: false)
                let theirs = decoded(reference, raw, container, record, maxPixelCount, partial: false)
                if mine != theirs { return "frame \(index): " + describe(mine, theirs) }
            }
            if let difference = compositedDifference(bytes, container, maxPixelCount, maxFrames) { return difference }
            guard let first = container.frames.first ?? container.partialFrame, !first.interlaced else { return nil }
            // The first image as it arrives: cut inside its data, decoded for the rows so far.
            let end = container.frames.count > 1 ? container.frames[1].descriptorOffset : raw.count
            for eighth in 1...7 {
                let cut = first.descriptorOffset + (end - first.descriptorOffset) * eighth / 8
                let prefix = UnsafeRawBufferPointer(rebasing: raw[0..<cut])
                let fresh = [GIFDecompressor.webImage, .giflib].map {
                    $0.makeDecoder(retainedCapacity: container.canvasSize.pixelCount)
                }
                let mine = decoded(fresh[0], prefix, container, first, maxPixelCount, partial: true)
                let theirs = decoded(fresh[1], prefix, container, first, maxPixelCount, partial: true)
                if mine != theirs { return "frame 0 cut at byte \(cut): " + describe(mine, theirs) }
            }
            return nil
        }
    }

    /// What differs between two outcomes: the first differing index when both decoded.
    static func describe(_ mine: Outcome, _ theirs: Outcome) -> String {
        if case .decoded(_, _, let a, _) = mine, case .decoded(_, _, let b, _) = theirs,
            let at = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
        {
            return "index \(at) is \(a[at]) in ours, \(b[at]) in giflib's (ours \(mine), giflib \(theirs))"
        }
        return "ours \(mine), giflib \(theirs)"
    }

    /// The first composited frame (RGBA, as playback shows it) that differs between the decoders.
    static func compositedDifference(
        _ bytes: [UInt8], _ container: GIFContainer, _ maxPixelCount: Int, _ maxFrames: Int
    ) -> String? {
        guard container.canvasSize.pixelCount <= maxPixelCount else { return nil }
        let renderers = [GIFDecompressor.webImage, .giflib].map {
            GIFRenderer(bytes: bytes, container: container, maxPixelCount: maxPixelCount, decompressor: $0)
        }
        var playbacks = [GIFPlayback(), GIFPlayback()]
        for index in 0..<min(maxFrames, container.frames.count) {
            var results: [Result<[UInt8], WebImageError>] = []
            for side in 0..<2 {
                do {
                    try renderers[side].advance(&playbacks[side], to: index)
                    results.append(.success(playbacks[side].canvas?.pixels ?? []))
                } catch let error as WebImageError {
                    results.append(.failure(error))
                } catch {
                    results.append(.failure(WebImageError(.decodingFailed, "\(error)")))
                }
            }
            switch (results[0], results[1]) {
            case (.success(let mine), .success(let theirs)):
                if mine != theirs {
                    let at = zip(mine, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                        ?? min(mine.count, theirs.count)
                    return "composited frame \(index) differs at byte \(at)"
                }
            case (.failure(let mine), .failure(let theirs)):
                if mine.code != theirs.code {
                    return "composited frame \(index): ours \(mine.code), giflib \(theirs.code)"
                }
                return nil  // both stop here
            default:
                return "composited frame \(index): ours \(results[0]), giflib \(results[1])"
            }
        }
        return nil
    }

    /// How one decode ended, comparable between the decoders.
    enum Outcome: Equatable, CustomStringConvertible {
        case failed(WebImageError.Code)
        case decoded(width: Int, height: Int, indices: [UInt8], colors: [UInt32])

        var description: String {
            switch self {
            case .failed(let code): "failed (\(code))"
            case .decoded(let width, let height, let indices, let colors):
                "\(width)×\(height) rows, indices hash \(indices.hashValue), colours hash \(colors.hashValue)"
            }
        }
    }

    static func decoded(
        _ decoder: any GIFIndexDecoding, _ bytes: UnsafeRawBufferPointer, _ container: GIFContainer,
        _ record: GIFFrameRecord, _ maxPixelCount: Int, partial: Bool
    ) -> Outcome {
        do {
            return try decoder.decode(
                bytes, container: container, record: record, maxPixelCount: maxPixelCount, partial: partial
            ) { frame in
                let count = frame.width * frame.height
                let indices = frame.indices.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
                return .decoded(
                    width: frame.width, height: frame.height, indices: indices,
                    colors: Array(UnsafeBufferPointer(start: frame.colors, count: 256)))
            }
        } catch let error as WebImageError {
            return .failed(error.code)
        } catch {
            return .failed(.decodingFailed)
        }
    }
}
