import CHEIF
import Foundation
import WebImage

/// A parsed HEIF container (`heif_context`) over bytes that outlive it.
///
/// Reading parses boxes only; nothing is decoded until ``HEIFImageHandle/decodeRGBA(maxPixelCount:)``.
final class HEIFContext {
    let context: OpaquePointer

    /// Parses `bytes` without copying them: they must stay valid as long as the context.
    init(bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw WebImageError.badData("no HEIF data") }
        // libheif recurses along item references without a guard: a cycle overflows the stack.
        try HEIFDerivedImages.checkReferenceGraph(bytes)
        guard let context = try HEIFLibrary.require().heif_context_alloc() else {
            throw WebImageError(.decodingFailed, "libheif could not create a context")
        }
        self.context = context
        // Grid tiles are decoded on the calling thread: the library decodes images in parallel.
        heif.heif_context_set_max_decoding_threads(context, 0)
        try HEIFStatus.check(
            heif.heif_context_read_from_memory_without_copy(context, base, bytes.count, nil), while: "reading the container")
    }

    deinit { heif.heif_context_free(context) }

    /// The primary image.
    func primaryImage() throws -> HEIFImageHandle {
        var handle: OpaquePointer?
        try HEIFStatus.check(heif.heif_context_get_primary_image_handle(context, &handle), while: "finding the primary image")
        guard let handle else { throw WebImageError.badData("HEIF file has no primary image") }
        return HEIFImageHandle(handle, context: self)
    }
}

/// One image of a HEIF file (the primary image or a thumbnail), not yet decoded.
final class HEIFImageHandle {
    let handle: OpaquePointer
    /// Keeps the context (and so the bytes it reads) alive as long as the handle.
    private let context: HEIFContext

    init(_ handle: OpaquePointer, context: HEIFContext) {
        self.handle = handle
        self.context = context
    }

    deinit { heif.heif_image_handle_release(handle) }

    /// The displayed size: after libheif's `irot`, `imir` and `clap` transforms.
    var size: PixelSize {
        PixelSize(width: Int(heif.heif_image_handle_get_width(handle)), height: Int(heif.heif_image_handle_get_height(handle)))
    }

    var hasAlpha: Bool { heif.heif_image_handle_has_alpha_channel(handle) != 0 }

    /// The image's RGB ICC profile (a `colr` box of type `prof` or `rICC`), or the one equivalent
    /// to its `nclx` code points; nil when it has none, describes sRGB, PQ or HLG, or is unusable.
    var colorProfile: ColorProfile? {
        let type = heif.heif_image_handle_get_color_profile_type(handle)
        if type == heif_color_profile_type_nclx {
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            guard heif.heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else { return nil }
            defer { heif.heif_nclx_color_profile_free(nclx) }
            return ColorProfile(
                codePoints: .init(
                    primaries: Int(nclx.pointee.color_primaries.rawValue),
                    transfer: Int(nclx.pointee.transfer_characteristics.rawValue)))
        }
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif.heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0, size <= ColorProfile.maxByteCount else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        guard heif.heif_image_handle_get_raw_color_profile(handle, &bytes).code == heif_error_Ok,
            let profile = ColorProfile(iccData: Data(bytes)), profile.colorSpace == .rgb
        else { return nil }
        return profile
    }

    /// The image's Exif and XMP items (the first of each; an Exif item's TIFF structure found
    /// after its 4-byte offset), nil when it has neither.
    var metadata: ImageMetadata? {
        var ids = [heif_item_id](repeating: 0, count: 16)
        let count = Int(heif.heif_image_handle_get_list_of_metadata_block_IDs(handle, nil, &ids, Int32(ids.count)))
        var exif: Data?
        var xmp: Data?
        for id in ids.prefix(max(0, min(count, ids.count))) {
            let type = heif.heif_image_handle_get_metadata_type(handle, id).map { String(cString: $0) } ?? ""
            let content = heif.heif_image_handle_get_metadata_content_type(handle, id).map { String(cString: $0) } ?? ""
            let size = heif.heif_image_handle_get_metadata_size(handle, id)
            guard size > 0, size <= ImageMetadata.maxByteCount else { continue }
            var bytes = [UInt8](repeating: 0, count: size)
            guard heif.heif_image_handle_get_metadata(handle, id, &bytes).code == heif_error_Ok else { continue }
            if type == "Exif", exif == nil {
                exif = ImageMetadata.tiffStructure(inExifItem: Data(bytes))
            } else if type == "mime", content == "application/rdf+xml", xmp == nil {
                xmp = Data(bytes)
            }
        }
        let metadata = ImageMetadata(exif: exif, xmp: xmp)
        return metadata.isEmpty ? nil : metadata
    }

    /// The thumbnails the file carries for this image (usually none or one).
    func thumbnails() -> [HEIFImageHandle] {
        let count = Int(heif.heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0, count < 64 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif.heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(count)))
        return ids.prefix(listed).compactMap { id in
            var thumbnail: OpaquePointer?
            guard heif.heif_image_handle_get_thumbnail(handle, id, &thumbnail).code == heif_error_Ok, let thumbnail else {
                return nil
            }
            return HEIFImageHandle(thumbnail, context: context)
        }
    }

    /// Decodes the image to straight 8-bit RGBA, transforms applied (alpha 255 without an alpha
    /// plane; 10-bit and 12-bit images are reduced to 8 bits).
    ///
    /// Callers check ``size`` against their pixel limit first; the decoded size is checked again
    /// before our buffer is allocated.
    func decodeRGBA(maxPixelCount: Int) throws -> PixelBuffer {
        guard let options = heif.heif_decoding_options_alloc() else {
            throw WebImageError(.decodingFailed, "libheif could not allocate decoding options")
        }
        defer { heif.heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        var decoded: OpaquePointer?
        try HEIFStatus.check(
            heif.heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options),
            while: "decoding a \(size) image")
        guard let decoded else { throw WebImageError(.decodingFailed, "libheif returned no image") }
        defer { heif.heif_image_release(decoded) }
        let width = Int(heif.heif_image_get_width(decoded, heif_channel_interleaved))
        let height = Int(heif.heif_image_get_height(decoded, heif_channel_interleaved))
        var stride: Int32 = 0
        guard let plane = heif.heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride),
            width > 0, height > 0, Int(stride) >= width * 4
        else {
            throw WebImageError(.decodingFailed, "libheif returned no RGBA plane")
        }
        let premultiplied = heif.heif_image_handle_is_premultiplied_alpha(handle) != 0
        let rowBytes = width * 4
        // libheif owns its image: one copy into ours, row by row (its stride may be padded).
        return try PixelBuffer(
            width: width, height: height, alphaMode: premultiplied ? .premultiplied : .straight,
            maxPixelCount: maxPixelCount
        ) { out in
            guard let destination = out.baseAddress else { return }
            for row in 0..<height {
                (destination + row * rowBytes).initialize(from: plane + row * Int(stride), count: rowBytes)
            }
        }
    }
}
