import CAVIF
import Foundation
import WebImage

/// Writes still AVIF images and image sequences with libavif's encoder.
enum AVIFEncoder {
    /// libavif's default speed in `avifenc`.
    static let defaultSpeed = 6
    /// Sequence timing: durations are written in milliseconds.
    static let timescale: UInt64 = 1000

    /// Encodes one image, tagged with `profile` and carrying `metadata` (Exif and XMP items) when
    /// there are some.
    static func encode(
        _ pixels: PixelBuffer, profile: ColorProfile? = nil, metadata: ImageMetadata? = nil, options: ImageEncodingOptions
    ) throws -> Data {
        let encoder = try makeEncoder(options: options)
        defer { avif.avifEncoderDestroy(encoder) }
        try add(pixels, to: encoder, withAlpha: !pixels.isOpaque, profile: profile, metadata: metadata, options: options,
            duration: 1, flags: AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue)
        return try finish(encoder)
    }

    /// Encodes every frame of `animation` as an image sequence, one frame in memory at a time.
    /// Sample durations are the frames' stored durations (``AnimatedImageSource/storedDuration(at:)``)
    /// in milliseconds: at least 1 (a 0 ms frame is written as 1 ms, which plays as 100 ms just the
    /// same) and at least 11 when the duration plays as stored, so rounding never moves a frame
    /// into ``FrameDurationRule``'s 100 ms zone. The loop count is not written (libavif 0.11 has no
    /// edit-list support): players loop forever.
    static func encode(
        _ animation: any AnimatedImageSource, hasAlpha: Bool, profile: ColorProfile? = nil, metadata: ImageMetadata? = nil,
        options: ImageEncodingOptions
    ) throws -> Data {
        let encoder = try makeEncoder(options: options)
        defer { avif.avifEncoderDestroy(encoder) }
        encoder.pointee.timescale = timescale
        for index in 0..<animation.frameCount {
            let frame = try animation.frame(at: index)
            let milliseconds = Self.milliseconds(animation.storedDuration(at: index))
            let flags = index == 0 ? AVIF_ADD_IMAGE_FLAG_FORCE_KEYFRAME.rawValue : AVIF_ADD_IMAGE_FLAG_NONE.rawValue
            try add(
                frame.pixels, to: encoder, withAlpha: hasAlpha, profile: profile, metadata: index == 0 ? metadata : nil,
                options: options, duration: milliseconds, flags: flags)
        }
        return try finish(encoder)
    }

    /// `seconds` in whole milliseconds for a sample duration (see ``encode(_:hasAlpha:profile:options:)``).
    static func milliseconds(_ seconds: Double) -> UInt64 {
        guard seconds.isFinite, seconds > 0 else { return 1 }
        let ms = min((seconds * 1000).rounded(), Double(UInt32.max))
        return UInt64(FrameDurationRule.isReplaced(seconds) ? max(1, ms) : max(11, ms))
    }

    private static func makeEncoder(options: ImageEncodingOptions) throws -> UnsafeMutablePointer<avifEncoder> {
        guard let encoder = try AVIFLibrary.require().avifEncoderCreate() else {
            throw WebImageError(.encodingFailed, "libavif could not create an encoder")
        }
        // libavif 1.0's quality mapping: quality 100 → quantizer 0, 0 → 63.
        let quantizer = options.lossless ? 0 : Int32((100 - options.qualityPercent) * 63 + 50) / 100
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = quantizer
        encoder.pointee.maxQuantizerAlpha = quantizer
        encoder.pointee.speed = Int32(min(10, max(0, options.speed ?? defaultSpeed)))
        encoder.pointee.maxThreads = 1
        return encoder
    }

    private static func add(
        _ pixels: PixelBuffer, to encoder: UnsafeMutablePointer<avifEncoder>, withAlpha: Bool, profile: ColorProfile?,
        metadata: ImageMetadata?, options: ImageEncodingOptions, duration: UInt64, flags: avifAddImageFlags
    ) throws {
        guard pixels.width > 0, pixels.height > 0 else {
            throw WebImageError(.encodingFailed, "cannot encode an empty \(pixels.size) image as AVIF")
        }
        let format = options.lossless ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
        guard let image = avif.avifImageCreate(UInt32(pixels.width), UInt32(pixels.height), 8, format) else {
            throw WebImageError(.encodingFailed, "libavif could not create a \(pixels.size) image")
        }
        defer { avif.avifImageDestroy(image) }
        // sRGB, as avifenc writes PNG and JPEG input; lossless keeps RGB as is (identity matrix).
        image.pointee.colorPrimaries = UInt16(AVIF_COLOR_PRIMARIES_BT709)
        image.pointee.transferCharacteristics = UInt16(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        image.pointee.matrixCoefficients = UInt16(
            options.lossless ? AVIF_MATRIX_COEFFICIENTS_IDENTITY : AVIF_MATRIX_COEFFICIENTS_BT601)
        image.pointee.yuvRange = AVIF_RANGE_FULL
        if let profile {
            // A `colr` box of type `prof`: readers take it over the nclx description.
            profile.data.withUnsafeBytes { icc in
                avif.avifImageSetProfileICC(image, icc.baseAddress?.assumingMemoryBound(to: UInt8.self), icc.count)
            }
        }
        // Exif and XMP items (libavif writes Exif's TIFF-header offset; the first frame's metadata
        // describes a sequence). libavif reads the Exif orientation into irot/imir, as it should.
        metadata?.exif?.withUnsafeBytes { exif in
            avif.avifImageSetMetadataExif(image, exif.baseAddress?.assumingMemoryBound(to: UInt8.self), exif.count)
        }
        metadata?.xmp?.withUnsafeBytes { xmp in
            avif.avifImageSetMetadataXMP(image, xmp.baseAddress?.assumingMemoryBound(to: UInt8.self), xmp.count)
        }
        let straight = pixels.unpremultiplied()
        var rgb = avifRGBImage()
        avif.avifRGBImageSetDefaults(&rgb, image)
        rgb.depth = 8
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.ignoreAlpha = withAlpha ? AVIF_FALSE : AVIF_TRUE
        try straight.bytes.withUnsafeBufferPointer { source in
            rgb.pixels = UnsafeMutablePointer(mutating: source.baseAddress)
            rgb.rowBytes = UInt32(pixels.width * 4)
            if let error = AVIFStatus.encodingError(for: avif.avifImageRGBToYUV(image, &rgb), while: "converting RGB to YUV") {
                throw error
            }
        }
        if let error = AVIFStatus.encodingError(
            for: avif.avifEncoderAddImage(encoder, image, duration, flags), while: "encoding a \(pixels.size) frame")
        {
            throw error
        }
    }

    private static func finish(_ encoder: UnsafeMutablePointer<avifEncoder>) throws -> Data {
        var output = avifRWData(data: nil, size: 0)
        defer { avif.avifRWDataFree(&output) }
        if let error = AVIFStatus.encodingError(for: avif.avifEncoderFinish(encoder, &output), while: "finishing the file") {
            throw error
        }
        guard let bytes = output.data, output.size > 0 else {
            throw WebImageError(.encodingFailed, "libavif wrote no data")
        }
        return Data(bytes: bytes, count: output.size)
    }
}
