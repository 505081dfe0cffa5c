import Foundation
import WebImage

/// Drives a decoder through the paths a hostile input reaches: a full decode with every frame
/// (up to a bound), a first-frame thumbnail, and a scaled-down animation; then checks each result.
struct DecoderExercise {
    /// The pixel limit while fuzzing: 4 MP (16 MB a frame) keeps each input fast under ASan; the
    /// limit check itself is exercised by every header above it.
    static let maxPixelCount = 4_000_000
    /// Frames decoded per animation in the full pass; later frames repeat the same code.
    static let maxFrames = 8
    /// The thumbnail box of the second pass (odd sizes reach the resampler's edge cases).
    static let thumbnailBox = PixelSize(width: 23, height: 17)

    let decoder: any ImageDecoding
    /// Also run format sniffing (`detect`, `isAnimated`, `canDecode`) and compare it with the result.
    var sniffs = false

    private struct Pass {
        var options: ImageDecodingOptions
        var frames: Int
        var fitsIn: PixelSize?
    }

    private var passes: [Pass] {
        var full = ImageDecodingOptions()
        full.maxPixelCount = Self.maxPixelCount
        var thumbnail = full
        thumbnail.firstFrameOnly = true
        thumbnail.thumbnailPixelSize = Self.thumbnailBox
        thumbnail.alphaMode = .straight
        var scaledDown = full
        scaledDown.scaleDownLimitBytes = 16 * 1024
        scaledDown.preserveAspectRatio = false
        return [
            Pass(options: full, frames: Self.maxFrames, fitsIn: nil),
            Pass(options: thumbnail, frames: 1, fitsIn: Self.thumbnailBox),
            Pass(options: scaledDown, frames: 2, fitsIn: nil),
        ]
    }

    func run(_ data: Data) -> FuzzOutcome {
        if sniffs {
            let format = ImageFormat.detect(in: data)
            let animated = ImageFormat.isAnimated(data)
            if animated && ![ImageFormat.apng, .gif, .webp].contains(format) {
                return .contractViolation("isAnimated is true for format \(format)")
            }
        }
        if let reader = decoder as? any ImageHeaderReading {
            do {
                _ = try reader.readHeader(data)
            } catch is WebImageError {
            } catch {
                return .contractViolation("readHeader threw \(type(of: error)), not WebImageError: \(error)")
            }
        }
        if let violation = incrementalViolation(data) { return .contractViolation(violation) }
        var firstError: WebImageError?
        var accepted = false
        for pass in passes {
            do {
                let image = try decoder.decode(data, options: pass.options)
                if let violation = Self.violation(in: image, pass: pass) { return .contractViolation(violation) }
                accepted = true
            } catch let error as WebImageError {
                firstError = firstError ?? error
            } catch {
                return .contractViolation("decode threw \(type(of: error)), not WebImageError: \(error)")
            }
        }
        if accepted { return .accepted }
        return .rejected(firstError?.code ?? .badImageData)
    }

    /// Chunk sizes for the incremental pass: small and odd, so that every codec suspends inside
    /// markers, chunk headers and rows.
    static let incrementalChunks = [1, 7, 61, 509, 3]

    /// Feeds the input to the decoder's incremental decoder (when it has one) in chunks, asking for
    /// an image after each: only typed errors, and every image a well-formed buffer within the limit.
    private func incrementalViolation(_ data: Data) -> String? {
        guard let progressive = decoder as? any ImageProgressiveDecoding else { return nil }
        var options = ImageDecodingOptions()
        options.maxPixelCount = Self.maxPixelCount
        let incremental = progressive.makeIncrementalDecoder(options: options)
        var offset = 0
        var step = 0
        do {
            while offset < data.count {
                let end = min(data.count, offset + Self.incrementalChunks[step % Self.incrementalChunks.count])
                try incremental.append(data.subdata(in: offset..<end))
                if let image = try incremental.currentImage() {
                    if let problem = Self.problem(with: image.pixels, expected: nil) { return "incremental image: \(problem)" }
                    if image.originalPixelSize.pixelCount > Self.maxPixelCount {
                        return "incremental decode of a \(image.originalPixelSize) image above the pixel limit"
                    }
                }
                offset = end
                step += 1
            }
        } catch is WebImageError {
            return nil
        } catch {
            return "incremental decoding threw \(type(of: error)), not WebImageError: \(error)"
        }
        return nil
    }

    /// The first broken contract of a decoded image, if any.
    private static func violation(in image: Image, pass: Pass) -> String? {
        if let problem = problem(with: image.pixels, expected: nil) { return "still image: \(problem)" }
        // The box may apply to the displayed orientation (EXIF 5–8 swap the axes), so either way round fits.
        if let box = pass.fitsIn, !fits(image.pixelSize, in: box),
            !fits(image.pixelSize, in: PixelSize(width: box.height, height: box.width))
        {
            return "thumbnail \(image.pixelSize) does not fit in \(box)"
        }
        // A raster source over the limit is refused; a vector one (SVG) is rendered scaled down to
        // fit it, by design, so for it the limit applies to the pixels made.
        let limited = image.format == .svg ? image.pixelSize : image.originalPixelSize
        if pass.options.maxPixelCount < limited.pixelCount {
            return "decoded a \(limited) image above the \(pass.options.maxPixelCount) pixel limit"
        }
        guard let animation = image.animation else { return nil }
        if pass.options.firstFrameOnly { return "firstFrameOnly returned an animation" }
        guard animation.frameCount >= 1 else { return "animation with \(animation.frameCount) frames" }
        guard animation.loopCount >= 0 else { return "negative loop count \(animation.loopCount)" }
        for index in 0..<min(animation.frameCount, pass.frames) {
            let duration = animation.duration(at: index)
            guard duration.isFinite, duration >= 0 else { return "frame \(index) lasts \(duration) s" }
            do {
                let frame = try animation.frame(at: index)
                if let problem = problem(with: frame.pixels, expected: animation.canvasSize) {
                    return "frame \(index): \(problem)"
                }
            } catch is WebImageError {
                return nil  // a corrupt later frame is a typed failure of that frame, as documented
            } catch {
                return "frame \(index) threw \(type(of: error)), not WebImageError: \(error)"
            }
        }
        return nil
    }

    private static func fits(_ size: PixelSize, in box: PixelSize) -> Bool {
        size.width <= box.width && size.height <= box.height
    }

    private static func problem(with pixels: PixelBuffer, expected: PixelSize?) -> String? {
        guard pixels.width > 0, pixels.height > 0 else { return "empty size \(pixels.size)" }
        let (count, overflow) = pixels.width.multipliedReportingOverflow(by: pixels.height * 4)
        guard !overflow, pixels.bytes.count == count else {
            return "\(pixels.bytes.count) bytes for \(pixels.size)"
        }
        if let expected, pixels.size != expected { return "size \(pixels.size), canvas \(expected)" }
        return nil
    }
}
