import CWebP
import Foundation
import WebImage

/// Decodes a still WebP while it arrives, through libwebp's incremental decoder (`WebPIDecoder`):
/// each image shows the rows decoded so far (transparent below).
///
/// The header is read with `WebPGetFeatures` once enough bytes are in, and the pixel limit checked,
/// before libwebp allocates the output. Thumbnails are scaled by libwebp while decoding, as in a
/// one-shot decode. Animated WebP cannot be decoded incrementally by libwebp: it shows nothing until
/// the download ends (the final decode gives every frame). Previews ignore the EXIF orientation,
/// which extended files store after the image data.
final class WebPIncrementalDecoder: ImageIncrementalDecoding {
    private let options: ImageDecodingOptions
    /// The bytes before the header could be read; handed to libwebp once it is.
    private var head = Data()
    private var header: WebPHeader?
    private var decoder: OpaquePointer?
    /// libwebp keeps pointers into the configuration (its options and output buffer) for the
    /// decoder's lifetime, so it lives at a fixed address.
    private let config: UnsafeMutablePointer<WebPDecoderConfig>
    private var target = PixelSize(width: 0, height: 0)
    private var complete = false
    private var shownRows = 0
    private var shownFinal = false
    /// The first bytes, kept until they say whether an `ICCP` chunk comes before the image data.
    private var preamble = Data()
    private var profileSearch = WebPMetadataChunks.ProfileSearch.undecided

    init(options: ImageDecodingOptions) {
        self.options = options
        config = .allocate(capacity: 1)
        config.initialize(to: WebPDecoderConfig())
    }

    deinit {
        if let decoder {
            WebPIDelete(decoder)
            WebPFreeDecBuffer(&config.pointee.output)
        }
        config.deallocate()
    }

    var isComplete: Bool { complete }

    func append(_ data: Data) throws {
        guard !complete else { return }
        if case .undecided = profileSearch, options.colorPolicy != .ignore {
            preamble.append(data)
            profileSearch = preamble.withUnsafeBytes { WebPMetadataChunks.iccChunk(in: $0) }
            // More than a profile's worth of chunks and still undecided: there is none to show.
            if case .undecided = profileSearch, preamble.count > 2 * ColorProfile.maxByteCount { profileSearch = .none }
            if case .undecided = profileSearch {} else { preamble = Data() }
        }
        if let decoder {
            return try feed(decoder, data)
        }
        head.append(data)
        let (read, status) = head.withUnsafeBytes { WebPHeader.read($0) }
        guard let header = read else {
            if status != VP8_STATUS_NOT_ENOUGH_DATA, let error = WebPStatus.error(for: status, while: "reading the header") {
                throw error
            }
            return
        }
        try options.checkPixelLimit(header.size)
        self.header = header
        // libwebp's incremental decoder reads still images only.
        guard !header.isAnimated else {
            complete = false
            head = Data()
            return
        }
        guard WebPInitDecoderConfig(config) != 0 else {
            throw WebImageError(.decodingFailed, "libwebp version mismatch (WebPInitDecoderConfig)")
        }
        target = options.targetSize(for: header.size)
        if target != header.size {
            config.pointee.options.use_scaling = 1
            config.pointee.options.scaled_width = Int32(target.width)
            config.pointee.options.scaled_height = Int32(target.height)
        }
        config.pointee.output.colorspace = MODE_RGBA
        guard let made = WebPIDecode(nil, 0, config) else {
            throw WebImageError(.decodingFailed, "libwebp could not make an incremental decoder")
        }
        decoder = made
        let bytes = head
        head = Data()
        try feed(made, bytes)
    }

    private func feed(_ decoder: OpaquePointer, _ data: Data) throws {
        let status = data.withUnsafeBytes { bytes -> VP8StatusCode in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return VP8_STATUS_SUSPENDED }
            return WebPIAppend(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        switch status {
        case VP8_STATUS_OK: complete = true
        case VP8_STATUS_SUSPENDED: break
        default: if let error = WebPStatus.error(for: status, while: "decoding incrementally") { throw error }
        }
    }

    func currentImage() throws -> Image? {
        guard let decoder, let header, !shownFinal else { return nil }
        var lastRow: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        var stride: Int32 = 0
        guard let rgba = WebPIDecGetRGB(decoder, &lastRow, &width, &height, &stride),
            Int(width) == target.width, Int(height) == target.height
        else { return nil }
        let rows = Int(lastRow)
        guard rows > shownRows || (complete && !shownFinal) else { return nil }
        shownRows = rows
        shownFinal = complete
        let rowBytes = target.width * 4
        let straight = PixelBuffer(width: target.width, height: target.height, alphaMode: .straight) { out in
            for y in 0..<target.height {
                let row = UnsafeMutableBufferPointer(rebasing: out[(y * rowBytes)..<((y + 1) * rowBytes)])
                if y < rows {
                    row.baseAddress?.initialize(from: rgba + y * Int(stride), count: rowBytes)
                } else {
                    row.initialize(repeating: 0)
                }
            }
        }
        var profile: ColorProfile?
        if case .found(let found) = profileSearch { profile = found }
        return Image(
            pixels: straight.converted(to: options.alphaMode), scale: options.scaleFactor, format: .webp,
            hasAlpha: header.hasAlpha, originalPixelSize: header.size, colorProfile: profile)
    }
}
