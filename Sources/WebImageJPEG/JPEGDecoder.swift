import CJPEGShim
import Foundation
import WebImage

/// The JPEG decoding steps: header, limits, DCT scale, scanlines, colour conversion, resampling.
enum JPEGDecoder {
    /// Decodes `data` as ``JPEGCoder/decode(_:options:)`` describes. A progressive file decoded at
    /// 1/8 leaves out the AC scans it does not use, unless `skippingUnusedScans` is false (tests
    /// and ``JPEGScanSkipDifferential`` compare the two); when it does, `leftOutScans` is told how
    /// many components the decode kept DC-only arrays for.
    static func decode(
        _ data: Data, options: ImageDecodingOptions, colorConverter: (any ColorConverting)? = nil,
        skippingUnusedScans: Bool = true, leftOutScans: (_ dcOnlyArrays: Int) -> Void = { _ in }
    ) throws -> Image {
        try data.withUnsafeBytes { bytes in
            let decompression = try JPEGDecompression(maxPixelCount: options.maxPixelCount)
            let (header, plan, dcOnlyComponents) = try readPlan(bytes, options: options, decompression: decompression)
            if skippingUnusedScans,
                let filtered = withoutUnusedScans(bytes, header: header, plan: plan, dcOnlyComponents: dcOnlyComponents)
            {
                // Only the DC scans of the components a block becomes one pixel of (the same pixels).
                return try filtered.withUnsafeBytes { filteredBytes in
                    let dcOnly = try JPEGDecompression(maxPixelCount: options.maxPixelCount)
                    let filteredHeader = try dcOnly.readHeader(filteredBytes)
                    dcOnly.disableBlockSmoothing()
                    // Their coefficient arrays need hold the DC coefficients alone.
                    dcOnly.storeDCOnly(dcOnlyComponents)
                    let image = try decode(dcOnly, header: filteredHeader, plan: plan, options: options, converter: colorConverter)
                    leftOutScans(dcOnly.dcOnlyArrays)
                    return image
                }
            }
            return try decode(decompression, header: header, plan: plan, options: options, converter: colorConverter)
        }
    }

    /// Reads the header of `bytes`, plans the decode and names the components whose blocks become
    /// one pixel at the plan's scale (none for a baseline file).
    static func readPlan(
        _ bytes: UnsafeRawBufferPointer, options: ImageDecodingOptions, decompression: JPEGDecompression
    ) throws -> (header: JPEGDecompression.Header, plan: JPEGDecodePlan, dcOnlyComponents: Set<UInt8>) {
        let header = try decompression.readHeader(bytes)
        let plan = try plan(for: header, options: options, decompression: decompression)
        return (header, plan, header.isProgressive ? decompression.dcOnlyComponents() : [])
    }

    /// `bytes` without the AC scans of `dcOnlyComponents` (``JPEGScanFilter``) when `plan` decodes
    /// a progressive file below full size; nil when nothing is left out.
    static func withoutUnusedScans(
        _ bytes: UnsafeRawBufferPointer, header: JPEGDecompression.Header, plan: JPEGDecodePlan,
        dcOnlyComponents: Set<UInt8>
    ) -> [UInt8]? {
        guard header.isProgressive, plan.scaleNumerator < JPEGScale.fullSize else { return nil }
        return JPEGScanFilter.droppingACScans(of: dcOnlyComponents, in: bytes)
    }

    /// Decodes the pixels of a decompression whose header has been read, as `plan` says.
    private static func decode(
        _ decompression: JPEGDecompression, header: JPEGDecompression.Header, plan: JPEGDecodePlan,
        options: ImageDecodingOptions, converter: (any ColorConverting)?
    ) throws -> Image {
        let decodedSize = try decompression.start(numerator: plan.scaleNumerator, cmyk: header.isCMYK)
        guard decodedSize == plan.decodedSize else {
            throw WebImageError(
                .decodingFailed, "JPEG: libjpeg decodes to \(decodedSize), expected \(plan.decodedSize)")
        }
        // JPEG pixels are opaque, so straight and premultiplied are the same bytes. libjpeg
        // writes every row, so warm storage from the pool is safe (and spares the page faults).
        let pixels = try PixelBuffer(
            width: decodedSize.width, height: decodedSize.height, alphaMode: options.alphaMode, storage: .shared
        ) { buffer in
            try decompression.readPixels(into: buffer, size: decodedSize)
            header.convertInks(buffer, options: options, converter: converter)
        }
        try decompression.finish()
        let decoded = image(from: pixels, header: header, plan: plan, options: options)
        // A DCT-scaled decode that was resampled was only the resampler's input.
        if decoded.pixels.size != pixels.size { PixelStoragePool.shared.recycle(pixels) }
        return decoded
    }

    /// The image of `pixels`, decoded (and colour-converted) at the plan's DCT scale: resampled to
    /// the target size, with the header's orientation.
    static func image(
        from decoded: PixelBuffer, header: JPEGDecompression.Header, plan: JPEGDecodePlan, options: ImageDecodingOptions
    ) -> Image {
        var pixels = decoded
        // libjpeg rounds a scaled size up, so the last column or row may hold less than a whole
        // pixel of the image: resample from the exact scaled extent so nothing shifts.
        if pixels.size != plan.targetSize {
            let scale = Double(plan.scaleNumerator) / 8
            pixels = Resampler.resample(
                pixels, to: plan.targetSize,
                sourceExtent: (Double(plan.sourceSize.width) * scale, Double(plan.sourceSize.height) * scale),
                knownOpaque: true)
        }
        return Image(
            pixels: pixels, scale: options.scaleFactor, orientation: header.orientation, format: .jpeg,
            hasAlpha: false, originalPixelSize: plan.sourceSize, colorProfile: header.pixelProfile)
    }

    /// How `data` would be decoded with `options`, from its header alone (no pixels are decoded).
    static func plan(for data: Data, options: ImageDecodingOptions) throws -> JPEGDecodePlan {
        try data.withUnsafeBytes { bytes in
            let decompression = try JPEGDecompression(maxPixelCount: options.maxPixelCount)
            let header = try decompression.readHeader(bytes)
            return try plan(for: header, options: options, decompression: decompression)
        }
    }

    /// Checks the pixel limit against the header, then picks the smallest DCT scale that still
    /// covers the target size.
    static func plan(
        for header: JPEGDecompression.Header, options: ImageDecodingOptions, decompression: JPEGDecompression
    ) throws -> JPEGDecodePlan {
        try options.checkPixelLimit(header.size)
        // The thumbnail box is in display orientation (width and height swapped for 5–8).
        let target = options.targetSize(for: header.size, orientation: header.orientation)
        let numerator = JPEGScale.numerator(for: header.size, target: target)
        let decodedSize = try decompression.scaledSize(numerator: numerator)
        guard decodedSize.width >= target.width, decodedSize.height >= target.height,
            decodedSize.width > 0, decodedSize.height > 0
        else {
            throw WebImageError(
                .decodingFailed, "JPEG: scale \(numerator)/8 of \(header.size) gives \(decodedSize), below \(target)")
        }
        // A draft stops at the DCT scale (a last column or row that holds part of a pixel is kept
        // whole: at most half a source block at the edge), unless that breaks the byte limit.
        let drafted =
            options.draft && options.thumbnailPixelSize != nil && numerator < JPEGScale.fullSize
            && options.scaleDownLimitBytes.map({ decodedSize.rgbaByteCount <= $0 }) ?? true
        return JPEGDecodePlan(
            sourceSize: header.size, targetSize: drafted ? decodedSize : target, scaleNumerator: numerator,
            decodedSize: decodedSize)
    }
}

extension JPEGDecompression.Header {
    /// The EXIF orientation of the APP1 segment, else XMP's, `.up` without either.
    var orientation: ImageOrientation {
        exif.flatMap { ExifOrientationReader.orientation(inTIFF: $0) } ?? xmpOrientation ?? .up
    }
}

extension JPEGDecompression.Header {
    /// The profile the decoded RGBA pixels are in: the embedded one when it describes the stored
    /// colour model (an RGB profile on a colour JPEG, a grey one on a greyscale JPEG), else nil.
    /// CMYK and YCCK pixels are converted to RGB by formula, so a CMYK profile no longer applies.
    var pixelProfile: ColorProfile? {
        guard let colorProfile else { return nil }
        switch color {
        case WEBIMAGE_JPEG_COLOR_GRAY: return colorProfile.colorSpace == .gray ? colorProfile : nil
        case WEBIMAGE_JPEG_COLOR_RGB, WEBIMAGE_JPEG_COLOR_YCBCR: return colorProfile.colorSpace == .rgb ? colorProfile : nil
        default: return nil
        }
    }

    /// What the header reports: ``pixelProfile``, or the CMYK profile of a CMYK or YCCK file (the
    /// one its inks are converted through).
    var reportedProfile: ColorProfile? {
        isCMYK && colorProfile?.colorSpace == .cmyk ? colorProfile : pixelProfile
    }
}
