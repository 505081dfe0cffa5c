import WebImageCodecs

/// Corpus entries where the manifest's reference (Pillow) is known to deviate from the format's
/// specification and from browsers, or whose verdict rests on a Pillow-only limit, each with the
/// reason. The suite still decodes these files and checks everything else about them.
enum KnownDeviations {
    static let apngBlendOver =
        "Pillow composites APNG blend_op=OVER with paste(mask=frame), blending alpha like a colour channel "
        + "(alpha 128 over transparent gives 64); the APNG spec's over operator, which WebImage follows, gives 128"
    static let gifDisposeBackground =
        "Pillow fills a disposal-2 rectangle with the background colour; browsers and WebImage clear it to transparent "
        + "(corpus README note 2)"
    static let gifExtents =
        "a frame extends beyond the logical screen: Pillow grows the canvas, browsers and WebImage clip (note 3)"

    /// Files whose frames after the first are not compared by checksum (frame 0, sizes, frame
    /// counts, loop counts and durations still are). GIFs whose manifest notes already name the
    /// disposal or extents difference are recognised by those notes.
    static let laterFramesNotCompared: [String: String] = [
        "pillow/apng/blend_op_over_near_transparent.png": apngBlendOver,
        "pillow/apng/mode_16bit.png": apngBlendOver,
        "pillow/apng/mode_grayscale_alpha.png": apngBlendOver,
        "pillow/apng/mode_palette_1bit_alpha.png": apngBlendOver,
        "image-rs/images/gif/anim/issue_1455_undersized.gif": gifDisposeBackground,
        "pillow/dispose_bgnd_rgba.gif": gifDisposeBackground,
        "pillow/test_extents_transparency.gif": gifExtents,
    ]

    /// `invalid` entries that Pillow rejects only because of a Pillow-specific safety limit, while
    /// libpng decodes them correctly: treated as lenient (either outcome, no crash). WebImage skips
    /// text chunks entirely, so the decompression bomb in them is never inflated (bounded memory).
    static let pillowOnlyLimits: [String: String] = [
        "pillow/png_decompression_dos.png":
            "Pillow's 1 MB text-chunk limit; WebImage never inflates text chunks, libpng decodes the 1×1 image"
    ]

    /// AVIF files whose manifest orientation does not come from the container's `irot`/`imir`.
    static let avifOrientationNotCompared: [String: String] = [
        "pillow/avif/xmp_tags_orientation.avif":
            "Pillow takes orientation 3 from the XMP packet's tiff:Orientation; an AVIF's orientation is its "
            + "irot/imir transforms (none here), which browsers and WebImage follow"
    ]

    /// PNGs whose manifest orientation comes from neither an `eXIf` chunk nor XMP.
    static let pngOrientationNotCompared: [String: String] = [
        "pillow/exif_imagemagick_orientation.png":
            "ImageMagick's EXIF in a `Raw profile type exif` text chunk (hex in zTXt), which Pillow reads; "
            + "WebImage reads the standard eXIf chunk (else XMP's tiff:Orientation) and never inflates text chunks"
    ]

    /// The orientation the suite expects of `entry`, or nil when it is not compared: the EXIF tag
    /// of JPEGs and TIFFs (else XMP's), the `eXIf` chunk of PNGs (else XMP's), the `irot`/`imir` transforms of AVIFs (Pillow
    /// reports them as an EXIF orientation without rotating the pixels, as WebImage does).
    static func expectedOrientation(_ entry: CorpusManifest.Entry) -> Int? {
        guard let orientation = entry.exif_orientation, (1...8).contains(orientation) else { return nil }
        switch entry.format {
        case "jpeg", "tiff": return orientation
        case "png", "apng": return pngOrientationNotCompared[entry.file] == nil ? orientation : nil
        case "avif": return avifOrientationNotCompared[entry.file] == nil ? orientation : nil
        default: return nil
        }
    }

    /// Why a `valid` file cannot decode with the libraries installed here, or nil. Such a file
    /// must still fail with a typed error, never crash.
    static func libraryLimit(_ entry: CorpusManifest.Entry) -> String? {
        // Lossless (SOF3) JPEG needs libjpeg-turbo 3.0; Debian 12 ships 2.1.5. With 3.0 it must pass.
        if entry.jpeg_process == "lossless" && !JPEGCoder.supportsLosslessJPEG {
            return "lossless JPEG needs libjpeg-turbo >= 3.0 (this build links an older one)"
        }
        // An LZW minimum code size of 11, beyond the GIF spec's 8: giflib refuses it, Pillow reads it.
        if entry.file == "pillow/issue_2811.gif" {
            return "LZW minimum code size 11 is outside the GIF spec (at most 8); giflib refuses it"
        }
        return nil
    }

    /// The largest 8×8 fingerprint difference allowed where ``tiffConversionDiffers(_:)`` applies.
    static let tiffFingerprintLimit = 3.0

    static let tiffAssociatedAlpha =
        "associated (premultiplied) alpha: Pillow's RGBa → RGBA truncates, WebImage's un-premultiply rounds to nearest (±1)"

    /// TIFFs compared by their 8×8 fingerprint (within ``tiffFingerprintLimit``) instead of the
    /// exact checksum.
    static let tiffFingerprintOnly: [String: String] = [
        "image-rs/images/tiff/testsuite/hpredict.tiff": tiffAssociatedAlpha,
        "image-rs/images/tiff/testsuite/hpredict_packbits.tiff": tiffAssociatedAlpha,
    ]

    /// Files whose first frame's pixels are not compared (size, frames and validity still are).
    static let firstFramePixelsNotCompared: [String: String] = [
        "image-rs/images/tiff/testsuite/ycbcr_lzw_bt709.tif":
            "its YCbCrCoefficients tag says BT.709: libtiff converts with those coefficients, as the TIFF spec asks; "
            + "Pillow always uses BT.601 (the 8×8 fingerprints differ by about 6)"
    ]

    /// Why a TIFF's exact checksum cannot match Pillow's, or nil: libtiff's `TIFFRGBAImage`
    /// (every layout but 8-bit RGB/RGBA/grey strips) converts some layouts differently from
    /// Pillow's `convert`.
    static func tiffConversionDiffers(_ entry: CorpusManifest.Entry) -> String? {
        guard entry.format == "tiff" else { return nil }
        if let reason = tiffFingerprintOnly[entry.file] { return reason }
        if entry.pillow?.mode == "CMYK" { return "CMYK: libtiff multiplies (255−C)(255−K)/255, Pillow subtracts" }
        if entry.pillow?.mode == "YCbCr" { return "YCbCr: libtiff's and Pillow's YCbCr → RGB conversions round differently" }
        if entry.file.contains("16b") {
            return "16-bit RGB: libtiff scales samples to 8 bits with rounding, Pillow keeps the high byte"
        }
        if entry.file.contains("jpeg") { return "JPEG-in-TIFF: libjpeg's upsampling differs from Pillow's" }
        return nil
    }
}
