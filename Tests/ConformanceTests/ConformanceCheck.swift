import Dispatch
import Foundation
import WebImage

/// What happened to one corpus file.
enum ConformanceOutcome {
    case passed(String)
    /// Decoded or rejected, either of which the manifest allows.
    case tolerated(String, decoded: Bool)
    case failed(String)

    var isFailure: Bool { if case .failed = self { true } else { false } }
    var detail: String {
        switch self {
        case .passed(let s), .failed(let s), .tolerated(let s, _): s
        }
    }
}

/// Checks one corpus entry: decode within the deadline, then compare with the manifest.
struct ConformanceCheck {
    let entry: CorpusManifest.Entry
    let data: Data
    let coders: ImageCodersManager
    /// A decode (all frames included) that takes longer fails as a hang.
    static let deadline: DispatchTimeInterval = .seconds(10)

    /// The decoded image and every animation frame, or the error.
    struct Decoded: Sendable {
        var image: Image
        var frames: [AnimationFrame]
    }

    func run() -> ConformanceOutcome {
        guard let result = decodeWithDeadline() else {
            return .failed("no answer within \(Self.deadline) (hang)")
        }
        let validity = KnownDeviations.pillowOnlyLimits[entry.file] == nil ? entry.expected_validity : "lenient"
        switch validity {
        case "valid":
            switch result {
            case .success(let decoded): return compare(decoded)
            case .failure(let error as WebImageError):
                if let limit = KnownDeviations.libraryLimit(entry) {
                    return .tolerated("library limit: \(limit); rejected with \(error.code)", decoded: false)
                }
                return .failed("valid file rejected: \(error)")
            case .failure(let error): return .failed("valid file rejected: \(error)")
            }
        case "invalid":
            switch result {
            case .success(let decoded): return .failed("invalid file decoded (\(decoded.image.pixelSize))")
            case .failure(let error as WebImageError): return .passed("rejected: \(error.code)")
            case .failure(let error): return .failed("untyped error \(type(of: error)): \(error)")
            }
        case "apng_fallback_static":
            switch result {
            case .success(let decoded):
                if decoded.image.isAnimated { return .failed("broken APNG still animated") }
                return matchHash(decoded.image.pixels, exact: entry.fallback_rgba8_sha256, zeroed: entry.fallback_rgba8_zeroed_sha256)
                    .map { .failed("static fallback: \($0)") } ?? .passed("static fallback image")
            case .failure(let error): return .failed("broken APNG rejected instead of falling back: \(error)")
            }
        default:  // lenient, disputed, unsupported_by_reference: either way, typed.
            switch result {
            case .success(let decoded): return .tolerated("decoded \(decoded.image.pixelSize)", decoded: true)
            case .failure(let error as WebImageError): return .tolerated("rejected: \(error.code)", decoded: false)
            case .failure(let error): return .failed("untyped error \(type(of: error)): \(error)")
            }
        }
    }

    private func decodeWithDeadline() -> Result<Decoded, any Error>? {
        let box = ResultBox()
        let (data, coders) = (self.data, self.coders)
        DispatchQueue.global().async {
            box.set(
                Result {
                    // The manifest's checksums are of the stored pixels, without colour management.
                    var options = ImageDecodingOptions(alphaMode: .straight)
                    options.colorPolicy = .ignore
                    let image = try coders.decode(data, options: options)
                    var frames: [AnimationFrame] = []
                    if let animation = image.animation {
                        for index in 0..<animation.frameCount { frames.append(try animation.frame(at: index)) }
                    }
                    return Decoded(image: image, frames: frames)
                })
        }
        return box.wait(timeout: Self.deadline)
    }

    private func compare(_ decoded: Decoded) -> ConformanceOutcome {
        let image = decoded.image
        if let w = entry.width, let h = entry.height, image.pixelSize != PixelSize(width: w, height: h) {
            return .failed("size \(image.pixelSize), expected \(w)×\(h)")
        }
        // APNG whose default image is not an animation frame: Pillow counts it as frame 0; the
        // APNG spec (and WebImage) keep it out of the animation.
        let separateDefault = entry.format == "apng" && entry.header?.default_image_is_first_frame == false
        let pillowFrames = entry.frame_count ?? 1
        let expectedFrames = separateDefault && pillowFrames > 1 ? pillowFrames - 1 : pillowFrames
        let frameCount = image.animation?.frameCount ?? 1
        if frameCount != expectedFrames { return .failed("\(frameCount) frames, expected \(expectedFrames)") }
        if let animation = image.animation, frameCount > 1 {
            let expectedLoop = entry.loop_count ?? 1  // absent NETSCAPE extension: plays once
            if animation.loopCount != expectedLoop {
                return .failed("loop count \(animation.loopCount), expected \(expectedLoop)")
            }
        }
        if let orientation = KnownDeviations.expectedOrientation(entry), image.orientation.rawValue != orientation {
            return .failed("EXIF orientation \(image.orientation.rawValue), expected \(orientation)")
        }
        if let problem = matchFirstFrame(image.pixels) { return .failed(problem) }
        if let problem = matchFrames(decoded, offset: separateDefault ? 1 : 0) { return .failed(problem) }
        return .passed("\(image.pixelSize), \(frameCount) frame(s)")
    }

    private func matchFirstFrame(_ pixels: PixelBuffer) -> String? {
        if KnownDeviations.firstFramePixelsNotCompared[entry.file] != nil { return nil }
        let exact = entry.rgba8_sha256_spec ?? entry.rgba8_sha256
        let zeroed = entry.rgba8_zeroed_sha256_spec ?? entry.rgba8_zeroed_sha256
        guard let mismatch = matchHash(pixels, exact: exact, zeroed: zeroed) else { return nil }
        // Lossy formats: the manifest allows a tolerance on the 8×8 fingerprint; so do the TIFF
        // layouts whose conversion to 8-bit RGBA libtiff and Pillow do differently.
        let conversion = KnownDeviations.tiffConversionDiffers(entry)
        guard entry.lossy == true || conversion != nil, let reference = entry.fingerprint_8x8 else { return mismatch }
        let limit = entry.format == "jpeg" ? 4.0 : conversion != nil ? KnownDeviations.tiffFingerprintLimit : 3.0
        let difference = PixelDigest.maxCellDifference(PixelDigest.fingerprint(pixels), reference)
        return difference <= limit ? nil : "fingerprint differs by \(difference) (limit \(limit))"
    }

    private func matchFrames(_ decoded: Decoded, offset: Int) -> String? {
        guard let reference = entry.pillow?.frames, decoded.frames.count > 1 else { return nil }
        for (index, frame) in decoded.frames.enumerated() {
            let pillowIndex = index + offset
            guard pillowIndex < reference.count else { break }
            let expected = reference[pillowIndex]
            if let expectedMs = expected.duration_ms {
                // Pillow reports the stored delay; every format plays it by the browsers' rule.
                let browserMs = FrameDurationRule.played(expectedMs / 1000) * 1000
                if abs(frame.duration * 1000 - browserMs) > 1 {
                    return "frame \(index) lasts \(frame.duration * 1000) ms, expected \(browserMs)"
                }
                let storedMs = (decoded.image.animation?.storedDuration(at: index) ?? -1) * 1000
                if abs(storedMs - expectedMs) > 1 {
                    return "frame \(index) stores \(storedMs) ms, expected \(expectedMs)"
                }
            }
            if entry.format == "gif" && Self.pillowGIFCompositingDiffers(entry) { continue }
            if KnownDeviations.laterFramesNotCompared[entry.file] != nil { continue }
            if let mismatch = matchHash(frame.pixels, exact: expected.rgba8_sha256, zeroed: expected.rgba8_zeroed_sha256) {
                return "frame \(index): \(mismatch)"
            }
        }
        return nil
    }

    /// GIFs whose later frames Pillow composites differently from browsers (corpus README notes 2–3).
    static func pillowGIFCompositingDiffers(_ entry: CorpusManifest.Entry) -> Bool {
        (entry.notes ?? []).contains { $0.contains("disposal") || $0.contains("beyond the logical screen") }
    }

    /// nil when the pixels match either checksum, otherwise a description of the mismatch.
    private func matchHash(_ pixels: PixelBuffer, exact: String?, zeroed: String?) -> String? {
        guard exact != nil || zeroed != nil else { return nil }
        if let exact, PixelDigest.sha256(pixels) == exact { return nil }
        if let zeroed, PixelDigest.zeroedSHA256(pixels) == zeroed { return nil }
        return "pixels differ from the reference checksum"
    }
}

/// A result handed from a worker thread, waited for with a deadline.
private final class ResultBox: @unchecked Sendable {  // state guarded by `lock`; signalled by `semaphore`
    private let lock = NSLock()
    private let semaphore = DispatchSemaphore(value: 0)
    private var result: Result<ConformanceCheck.Decoded, any Error>?

    func set(_ value: Result<ConformanceCheck.Decoded, any Error>) {
        lock.withLock { result = value }
        semaphore.signal()
    }

    func wait(timeout: DispatchTimeInterval) -> Result<ConformanceCheck.Decoded, any Error>? {
        guard semaphore.wait(timeout: .now() + timeout) == .success else { return nil }
        return lock.withLock { result }
    }
}
