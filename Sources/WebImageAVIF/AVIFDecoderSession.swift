import CAVIF
import Foundation
import WebImage

/// What an AVIF container says, read by `avifDecoderParse` without decoding any AV1 data.
struct AVIFContainerInfo {
    /// The image size (every frame of a sequence has it).
    var size: PixelSize
    var frameCount: Int
    var hasAlpha: Bool
    var orientation: ImageOrientation
    /// Each frame's duration in seconds (one entry per frame; 0 for still images).
    var durations: [Double]
    /// The RGB ICC profile of the `colr` box, or the one equivalent to its `nclx` code points.
    var colorProfile: ColorProfile?
    /// The Exif and XMP items libavif read with the container.
    var metadata: ImageMetadata?
    /// Bits a sample as coded (8, 10 or 12), from the AV1 configuration.
    var bitDepth = 8
}

/// An `avifDecoder` over bytes that outlive it, positioned on a frame.
///
/// Sequential frames cost one `avifDecoderNextImage` each; any other jump uses
/// `avifDecoderNthImage`, which starts from the nearest keyframe, never from frame 0 unless that
/// is the keyframe. Not thread-safe: ``AVIFAnimatedSource`` guards it with a mutex.
final class AVIFDecoderSession {
    private let decoder: UnsafeMutablePointer<avifDecoder>
    /// Keeps the bytes alive while the decoder points into them (nil when the caller does).
    private let owner: OwnedBytes?
    /// The frame in `decoder.image`, or -1 before the first decode.
    private(set) var index = -1
    /// How many AV1 frames libavif has decoded (a seek decodes from the nearest keyframe).
    private(set) var decodedFrames = 0
    let info: AVIFContainerInfo

    /// Parses the container of `bytes`, which must stay valid as long as the session (pass
    /// `owner` to keep them alive). Decodes nothing: callers check `info.size` against their
    /// pixel limit, then call ``limitPixels(to:)`` before the first frame. With `readsMetadata`,
    /// libavif keeps the Exif and XMP items (``AVIFContainerInfo/metadata``).
    init(bytes: UnsafeRawBufferPointer, owner: OwnedBytes? = nil, readsDurations: Bool = true, readsMetadata: Bool = false) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw WebImageError.badData("no AVIF data") }
        guard let decoder = try AVIFLibrary.require().avifDecoderCreate() else {
            throw WebImageError(.decodingFailed, "libavif could not create a decoder")
        }
        // One thread per decode, as avifdec's default: the library decodes images in parallel.
        decoder.pointee.maxThreads = 1
        decoder.pointee.ignoreExif = readsMetadata ? AVIF_FALSE : AVIF_TRUE
        decoder.pointee.ignoreXMP = readsMetadata ? AVIF_FALSE : AVIF_TRUE
        // Browsers accept files that miss a mandatory box such as `pixi`; so do we.
        decoder.pointee.strictFlags = AVIF_STRICT_DISABLED.rawValue
        // Sizes are judged by the caller's pixel limit (a 40000×2 strip is fine, 20000×20000 is
        // not), so that an oversized file is `tooLarge`, not a parse failure.
        decoder.pointee.imageDimensionLimit = 0
        do {
            try AVIFStatus.check(
                avif.avifDecoderSetIOMemory(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count),
                while: "opening the data")
            let parsed = avif.avifDecoderParse(decoder)
            if parsed != AVIF_RESULT_OK {
                let detail = Self.diagnostic(decoder)
                // libavif refuses sizes over its own limit (16384 × 16384 pixels) while parsing.
                if detail.contains("too large") {
                    throw WebImageError(.tooLarge, "AVIF image size is over libavif's limit (\(detail))")
                }
                throw AVIFStatus.error(for: parsed, while: "reading the container\(detail.isEmpty ? "" : ": " + detail)")
                    ?? WebImageError.badData("AVIF container is corrupt")
            }
            guard let image = decoder.pointee.image, image.pointee.width > 0, image.pointee.height > 0 else {
                throw WebImageError.badData("AVIF container declares no image size")
            }
            let count = Int(decoder.pointee.imageCount)
            guard count > 0 else { throw WebImageError.badData("AVIF container has no image") }
            var durations = [Double](repeating: 0, count: count)
            if readsDurations && count > 1 && count <= Self.exactDurationFrameLimit {
                for frame in 0..<count {
                    var timing = avifImageTiming()
                    if avif.avifDecoderNthImageTiming(decoder, UInt32(frame), &timing) == AVIF_RESULT_OK {
                        durations[frame] = timing.duration.isFinite ? max(0, timing.duration) : 0
                    }
                }
            } else if readsDurations && count > 1 {
                let total = decoder.pointee.duration
                let average = total.isFinite && total > 0 ? total / Double(count) : 0
                durations = [Double](repeating: average, count: count)
            }
            info = AVIFContainerInfo(
                size: PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height)),
                frameCount: count, hasAlpha: decoder.pointee.alphaPresent != AVIF_FALSE,
                orientation: AVIFOrientation.orientation(of: image.pointee), durations: durations,
                colorProfile: Self.colorProfile(of: image.pointee), metadata: Self.metadata(of: image.pointee),
                bitDepth: Int(image.pointee.depth))
        } catch {
            avif.avifDecoderDestroy(decoder)
            throw error
        }
        self.decoder = decoder
        self.owner = owner
    }

    /// libavif's per-frame timing walks the sample table from frame 0 (O(n²) for every frame of
    /// a sequence, worse with a hostile time-to-sample table), so exact durations are read up to
    /// this many frames; longer sequences report the average (total duration ÷ frames).
    static let exactDurationFrameLimit = 512

    deinit { avif.avifDecoderDestroy(decoder) }

    /// libavif's explanation of its last error, if any.
    private static func diagnostic(_ decoder: UnsafeMutablePointer<avifDecoder>) -> String {
        withUnsafeBytes(of: decoder.pointee.diag.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// Makes the AV1 decoder refuse frames over `maxPixelCount` pixels, whatever the container
    /// said (dav1d's frame size limit). The parse ran without a limit so that the caller could
    /// answer `tooLarge` from the container's size; the reset recreates the codecs with this one.
    func limitPixels(to maxPixelCount: Int) throws {
        decoder.pointee.imageSizeLimit = UInt32(min(max(1, maxPixelCount), Int(UInt32.max)))
        try AVIFStatus.check(avif.avifDecoderReset(decoder), while: "setting the pixel limit")
        index = -1
    }

    /// Decodes frame `target` and converts it to straight 8-bit RGBA.
    func rgba(at target: Int, maxPixelCount: Int) throws -> PixelBuffer {
        try Self.rgba(of: image(at: target), maxPixelCount: maxPixelCount)
    }

    /// Decodes frame `target` (libavif keeps the image until the next decode).
    private func image(at target: Int) throws -> UnsafeMutablePointer<avifImage> {
        guard target >= 0 && target < info.frameCount else {
            throw WebImageError(.decodingFailed, "frame \(target) is out of range 0..<\(info.frameCount)")
        }
        if target != index {
            let sequential = target == index + 1
            let result = sequential ? avif.avifDecoderNextImage(decoder) : avif.avifDecoderNthImage(decoder, UInt32(target))
            decodedFrames += sequential ? 1 : target - Int(avif.avifDecoderNearestKeyframe(decoder, UInt32(target))) + 1
            guard result == AVIF_RESULT_OK else {
                // The decoder's position is unknown now: the next call seeks from a keyframe.
                index = -2
                throw AVIFStatus.error(for: result, while: "decoding frame \(target)")
                    ?? WebImageError(.decodingFailed, "libavif failed on frame \(target)")
            }
            index = target
        }
        guard let image = decoder.pointee.image else {
            throw WebImageError(.decodingFailed, "libavif returned no image for frame \(target)")
        }
        return image
    }

    /// Decodes frame `target` of a 10- or 12-bit image at 16 bits and converts it to 8-bit sRGB
    /// with `transform`; nil (the caller decodes to 8 bits) for an 8-bit image or one whose 16-bit
    /// RGB would not fit `allowsWideBuffer` (pixels). libavif converts YUV to RGB in one call, so
    /// the 16-bit RGB is held whole, then converted into the 8-bit buffer and freed.
    func wideRGBA(at target: Int, maxPixelCount: Int, transform: any WideColorTransform, allowsWideBuffer: (Int) -> Bool) throws
        -> PixelBuffer?
    {
        let image = try image(at: target)
        let width = Int(image.pointee.width)
        let height = Int(image.pointee.height)
        try PixelBuffer.checkSize(PixelSize(width: width, height: height), maxPixelCount: maxPixelCount)
        guard image.pointee.depth > 8, allowsWideBuffer(width * height) else { return nil }
        var rgb = avifRGBImage()
        avif.avifRGBImageSetDefaults(&rgb, image)
        rgb.depth = 16
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.alphaPremultiplied = AVIF_FALSE
        let samples = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: width * height * 4)
        defer { samples.deallocate() }
        rgb.pixels = UnsafeMutableRawPointer(samples.baseAddress)?.assumingMemoryBound(to: UInt8.self)
        rgb.rowBytes = UInt32(width * 8)
        try AVIFStatus.check(avif.avifImageYUVToRGB(image, &rgb), while: "converting YUV to 16-bit RGB")
        return PixelBuffer(width: width, height: height, alphaMode: .straight) { out in
            guard let source = samples.baseAddress, let destination = out.baseAddress else { return }
            transform.convert(
                source, sourceRowBytes: width * 8, into: destination, destinationRowBytes: width * 4, width: width, rows: height)
        }
    }

    /// Converts a decoded YUV image straight into a new buffer (libyuv when it applies), with
    /// alpha 255 where the image has no alpha plane.
    static func rgba(of image: UnsafeMutablePointer<avifImage>, maxPixelCount: Int) throws -> PixelBuffer {
        let width = Int(image.pointee.width)
        let height = Int(image.pointee.height)
        var rgb = avifRGBImage()
        avif.avifRGBImageSetDefaults(&rgb, image)
        rgb.depth = 8
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.alphaPremultiplied = AVIF_FALSE
        return try PixelBuffer(width: width, height: height, alphaMode: .straight, maxPixelCount: maxPixelCount) { out in
            rgb.pixels = out.baseAddress
            rgb.rowBytes = UInt32(width * 4)
            try AVIFStatus.check(avif.avifImageYUVToRGB(image, &rgb), while: "converting YUV to RGB")
        }
    }
}

extension AVIFDecoderSession {
    /// The RGB ICC profile `image` carries (libavif reads the `colr` box of type `prof`/`rICC`),
    /// else the profile equivalent to its `nclx` code points (nil for sRGB, PQ and HLG).
    static func colorProfile(of image: avifImage) -> ColorProfile? {
        guard let data = image.icc.data, image.icc.size > 0 else {
            return ColorProfile(
                codePoints: .init(primaries: Int(image.colorPrimaries), transfer: Int(image.transferCharacteristics)))
        }
        guard image.icc.size <= ColorProfile.maxByteCount,
            let profile = ColorProfile(iccData: Data(bytes: data, count: image.icc.size)), profile.colorSpace == .rgb
        else { return nil }
        return profile
    }
}

extension AVIFDecoderSession {
    /// The Exif and XMP items of `image` (libavif 0.11 keeps the Exif item's payload after its
    /// 4-byte TIFF-header offset; a payload that does not start with a TIFF header is looked into
    /// at that offset).
    static func metadata(of image: avifImage) -> ImageMetadata? {
        func bytes(_ data: avifRWData) -> Data? {
            guard let pointer = data.data, data.size > 0, data.size <= ImageMetadata.maxByteCount else { return nil }
            return Data(bytes: pointer, count: data.size)
        }
        let metadata = ImageMetadata(exif: bytes(image.exif).map(ImageMetadata.tiffStructure(inExifItem:)), xmp: bytes(image.xmp))
        return metadata.isEmpty ? nil : metadata
    }
}
