import CHEIF
import Foundation
import WebImage

/// Writes HEIC (HEVC in HEIF) with libheif's encoder (x265 on Debian 12).
enum HEIFEncoder {
    /// x265 presets from the slowest to the fastest; ``ImageEncodingOptions/speed`` 0…10 picks one.
    static let presets = [
        "placebo", "veryslow", "slower", "slow", "medium", "medium", "fast", "faster", "veryfast", "superfast",
        "ultrafast",
    ]

    /// Whether the installed libheif can write HEVC.
    static var isAvailable: Bool { (try? HEIFLibrary.require().heif_have_encoder_for_format(heif_compression_HEVC)).map { $0 != 0 } ?? false }

    /// Encodes `pixels` as the primary image; with `thumbnailSide`, also a thumbnail of at most
    /// that many pixels a side; with `profile`, that ICC profile as the primary image's `colr`
    /// box of type `prof` (the pixels are stored as given, in its space); with `metadata`, its
    /// Exif and XMP as items of the primary image. `orientation` is written as `irot`/`imir`
    /// boxes (the pixels stay as given), for tests that need a rotated file.
    static func encode(
        _ pixels: PixelBuffer, options: ImageEncodingOptions, thumbnailSide: Int? = nil,
        orientation: ImageOrientation = .up, profile: ColorProfile? = nil, metadata: ImageMetadata? = nil
    ) throws -> Data {
        guard isAvailable else {
            throw WebImageError(
                .unsupportedFormat, "this libheif has no HEVC encoder (install libheif with x265 support to write HEIC)")
        }
        guard pixels.width > 0, pixels.height > 0 else {
            throw WebImageError(.encodingFailed, "cannot encode an empty \(pixels.size) image as HEIC")
        }
        guard let context = try HEIFLibrary.require().heif_context_alloc() else {
            throw WebImageError(.encodingFailed, "libheif could not create a context")
        }
        defer { heif.heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif.heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), "finding the HEVC encoder")
        guard let encoder else { throw WebImageError(.unsupportedFormat, "libheif returned no HEVC encoder") }
        defer { heif.heif_encoder_release(encoder) }
        if options.lossless {
            try check(heif.heif_encoder_set_lossless(encoder, 1), "asking for lossless")
            // Lossless HEVC of subsampled chroma would still lose colour; the YCbCr conversion rounds.
            try check(heif.heif_encoder_set_parameter_string(encoder, "chroma", "444"), "asking for 4:4:4 chroma")
        } else {
            try check(heif.heif_encoder_set_lossy_quality(encoder, Int32(options.qualityPercent)), "setting the quality")
        }
        if let speed = options.speed {
            let preset = presets[min(10, max(0, speed))]
            try check(heif.heif_encoder_set_parameter_string(encoder, "preset", preset), "setting the x265 preset \(preset)")
        }
        let image = try makeImage(pixels.unpremultiplied())
        defer { heif.heif_image_release(image) }
        if let profile {
            // libheif 1.15 keeps the profile of an RGB image through its YCbCr conversion, which
            // does not depend on it (ColorProfileEncodingTests: the bytes come back, the pixels
            // are those of an untagged encode).
            try profile.data.withUnsafeBytes { bytes in
                let status = heif.heif_image_set_raw_color_profile(image, "prof", bytes.baseAddress, bytes.count)
                try check(status, "setting the ICC profile")
            }
        }
        guard let encoding = heif.heif_encoding_options_alloc() else {
            throw WebImageError(.encodingFailed, "libheif could not allocate encoding options")
        }
        defer { heif.heif_encoding_options_free(encoding) }
        encoding.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation.rawValue))
        var handle: OpaquePointer?
        try check(heif.heif_context_encode_image(context, image, encoder, encoding, &handle), "encoding a \(pixels.size) image")
        defer { if let handle { heif.heif_image_handle_release(handle) } }
        if let metadata, let handle {
            // libheif puts the 4-byte offset to the TIFF header before the Exif item's data.
            if let exif = metadata.exif {
                try exif.withUnsafeBytes { bytes in
                    try check(
                        heif.heif_context_add_exif_metadata(context, handle, bytes.baseAddress, Int32(bytes.count)), "adding Exif")
                }
            }
            if let xmp = metadata.xmp {
                try xmp.withUnsafeBytes { bytes in
                    try check(heif.heif_context_add_XMP_metadata(context, handle, bytes.baseAddress, Int32(bytes.count)), "adding XMP")
                }
            }
        }
        if let thumbnailSide, let handle {
            var thumbnail: OpaquePointer?
            try check(
                heif.heif_context_encode_thumbnail(context, image, handle, encoder, encoding, Int32(thumbnailSide), &thumbnail),
                "encoding a thumbnail")
            if let thumbnail { heif.heif_image_handle_release(thumbnail) }
        }
        return try write(context)
    }

    /// A libheif image holding a copy of `pixels` (RGB when opaque, RGBA otherwise).
    private static func makeImage(_ pixels: PixelBuffer) throws -> OpaquePointer {
        let opaque = pixels.isOpaque
        var created: OpaquePointer?
        try check(
            heif.heif_image_create(
                Int32(pixels.width), Int32(pixels.height), heif_colorspace_RGB,
                opaque ? heif_chroma_interleaved_RGB : heif_chroma_interleaved_RGBA, &created),
            "creating a \(pixels.size) image")
        guard let image = created else { throw WebImageError(.encodingFailed, "libheif created no image") }
        do {
            try check(
                heif.heif_image_add_plane(image, heif_channel_interleaved, Int32(pixels.width), Int32(pixels.height), 8),
                "adding the RGB plane")
            var stride: Int32 = 0
            guard let plane = heif.heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
                throw WebImageError(.encodingFailed, "libheif gave no RGB plane")
            }
            let channels = opaque ? 3 : 4
            pixels.bytes.withUnsafeBufferPointer { source in
                for y in 0..<pixels.height {
                    let row = plane + y * Int(stride)
                    var from = y * pixels.width * 4
                    for x in 0..<pixels.width {
                        for c in 0..<channels { row[x * channels + c] = source[from + c] }
                        from += 4
                    }
                }
            }
            return image
        } catch {
            heif.heif_image_release(image)
            throw error
        }
    }

    /// The file libheif writes for `context`.
    private static func write(_ context: OpaquePointer) throws -> Data {
        let sink = ByteSink()
        var writer = heif_writer(writer_api_version: 1, write: { _, bytes, size, userdata in
            if let bytes, let userdata {
                Unmanaged<ByteSink>.fromOpaque(userdata).takeUnretainedValue().data.append(
                    bytes.assumingMemoryBound(to: UInt8.self), count: size)
            }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        })
        try withExtendedLifetime(sink) {
            try check(heif.heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque()), "writing the file")
        }
        guard !sink.data.isEmpty else { throw WebImageError(.encodingFailed, "libheif wrote no data") }
        return sink.data
    }

    private static func check(_ error: heif_error, _ stage: String) throws {
        if let mapped = HEIFStatus.encodingError(for: error, while: stage) { throw mapped }
    }

    /// Collects what libheif's writer callback hands over.
    private final class ByteSink {
        var data = Data()
    }
}
