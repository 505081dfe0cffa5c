import CWebP
import Foundation
import WebImage

/// The metadata chunks of an extended WebP (`VP8X`): the EXIF orientation and the ICC profile.
/// Both are exposed on the ``Image`` (``Image/orientation``, ``Image/colorProfile``) and neither
/// changes the pixels as decoded.
enum WebPMetadataChunks {
    /// The VP8X feature flag that announces an `EXIF` chunk.
    static let exifFlag: UInt8 = 0x08
    /// The VP8X feature flag that announces an `ICCP` chunk.
    static let iccFlag: UInt8 = 0x20

    /// The VP8X feature flag that announces an `XMP ` chunk.
    static let xmpFlag: UInt8 = 0x04

    /// The orientation stored in `bytes` (a whole WebP file): the `EXIF` chunk's, else the `XMP `
    /// chunk's `tiff:Orientation`; `.up` when neither states one.
    static func orientation(in bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        chunk("EXIF", flag: exifFlag, in: bytes).flatMap { ExifOrientationReader.orientation(inTIFF: $0) }
            ?? chunk("XMP ", flag: xmpFlag, in: bytes).flatMap { XMPPacket.orientation(in: $0) } ?? .up
    }

    /// The `EXIF` and `XMP ` chunks of `bytes` (a whole WebP file); nil when it has neither.
    static func metadata(in bytes: UnsafeRawBufferPointer) -> ImageMetadata? {
        let metadata = ImageMetadata(
            exif: chunk("EXIF", flag: exifFlag, in: bytes).map { Data($0) },
            xmp: chunk("XMP ", flag: xmpFlag, in: bytes).map { Data($0) })
        return metadata.isEmpty ? nil : metadata
    }

    /// The RGB ICC profile of the `ICCP` chunk in `bytes`, or nil when there is none, it is not
    /// an ICC profile, or it is not an RGB one (WebP pixels are RGB).
    static func colorProfile(in bytes: UnsafeRawBufferPointer) -> ColorProfile? {
        if case .found(let profile) = iccChunk(in: bytes) { return profile }
        return nil
    }

    /// What the first bytes of a WebP say of its profile.
    enum ProfileSearch {
        /// More bytes are needed to know.
        case undecided
        /// There is none (or none that is usable).
        case none
        /// This one.
        case found(ColorProfile)
    }

    /// Walks the chunks after `VP8X` (which must come first, ICCP before any image data) as far
    /// as `bytes` goes, so that a file still arriving can be asked too.
    static func iccChunk(in bytes: UnsafeRawBufferPointer) -> ProfileSearch {
        guard bytes.count >= 21 else { return .undecided }
        guard bytes[12] == 0x56, bytes[13] == 0x50, bytes[14] == 0x38, bytes[15] == 0x58, bytes[20] & iccFlag != 0
        else { return .none }
        var offset = 12
        while offset + 8 <= bytes.count {
            let fourCC = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            guard size <= ColorProfile.maxByteCount || fourCC != "ICCP" else { return .none }
            if fourCC == "ICCP" {
                guard offset + 8 + size <= bytes.count else { return .undecided }
                let payload = Data(bytes[(offset + 8)..<(offset + 8 + size)])
                guard let profile = ColorProfile(iccData: payload), profile.colorSpace == .rgb else { return .none }
                return .found(profile)
            }
            if ["VP8 ", "VP8L", "ALPH", "ANIM"].contains(fourCC) { return .none }
            offset += 8 + size + (size & 1)
        }
        return .undecided
    }

    /// The payload of the first `fourCC` chunk, when the VP8X header announces it with `flag`.
    private static func chunk(_ fourCC: String, flag: UInt8, in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        // Only extended files (VP8X) carry metadata; skip the demuxer unless the flag is set.
        guard bytes.count > 20, bytes[12] == 0x56, bytes[13] == 0x50, bytes[14] == 0x38, bytes[15] == 0x58,
            bytes[20] & flag != 0, let base = bytes.baseAddress
        else { return nil }
        var data = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&data) else { return nil }
        defer { WebPDemuxDelete(demuxer) }
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, fourCC, 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        guard let payload = iterator.chunk.bytes else { return nil }
        return [UInt8](UnsafeBufferPointer(start: payload, count: iterator.chunk.size))
    }
}

extension WebPMetadataChunks {
    /// `webp` (a whole file) with `profile` as its `ICCP` chunk, through libwebpmux (which writes
    /// the `VP8X` header and its flag); `encodingFailed` when the mux refuses the file.
    static func embedding(_ profile: ColorProfile, in webp: Data) throws -> Data {
        try embedding([("ICCP", profile.data)], in: webp, what: "the colour profile")
    }

    /// `webp` with `metadata`'s EXIF and XMP as its `EXIF` and `XMP ` chunks (WebP has no IPTC).
    static func embedding(_ metadata: ImageMetadata, in webp: Data) throws -> Data {
        let chunks = [("EXIF", metadata.exif), ("XMP ", metadata.xmp)].compactMap { name, data in data.map { (name, $0) } }
        return chunks.isEmpty ? webp : try embedding(chunks, in: webp, what: "metadata")
    }

    private static func embedding(_ chunks: [(String, Data)], in webp: Data, what: String) throws -> Data {
        try webp.withUnsafeBytes { file in
            var input = WebPData(bytes: file.baseAddress?.assumingMemoryBound(to: UInt8.self), size: file.count)
            guard let mux = WebPMuxCreate(&input, 1) else {
                throw WebImageError(.encodingFailed, "WebP: libwebpmux cannot read the encoded file to add \(what)")
            }
            defer { WebPMuxDelete(mux) }
            for (fourCC, payload) in chunks {
                let status = payload.withUnsafeBytes { raw in
                    var chunk = WebPData(bytes: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: raw.count)
                    return WebPMuxSetChunk(mux, fourCC, &chunk, 1)
                }
                guard status == WEBP_MUX_OK else { throw WebImageError(.encodingFailed, "WebP: libwebpmux cannot add \(what)") }
            }
            var output = WebPData()
            defer { WebPDataClear(&output) }
            guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let bytes = output.bytes else {
                throw WebImageError(.encodingFailed, "WebP: libwebpmux cannot add \(what)")
            }
            return Data(bytes: bytes, count: output.size)
        }
    }
}
