import WebImageCodecs

/// Corpus entries where the manifest's reference (Pillow) is known to deviate from the format's
/// specification, or whose verdict rests on a Pillow-only limit, each with the reason. The suite
/// still decodes these files and checks everything else about them; it prints them as deviations.
enum KnownDeviations {
    /// Files whose later APNG frames are not compared by checksum: Pillow composites `blend_op=OVER`
    /// with `Image.paste(frame, mask=frame)`, which blends the alpha channel like a colour channel
    /// (alpha 128 over transparent gives 64); the APNG spec's "over" operator gives 128. WebImage
    /// follows the spec. Frame 0, sizes, frame counts, loop counts and durations are still checked.
    static let apngBlendOverPartialAlpha: Set<String> = [
        "pillow/apng/blend_op_over_near_transparent.png",
        "pillow/apng/mode_16bit.png",
        "pillow/apng/mode_grayscale_alpha.png",
        "pillow/apng/mode_palette_1bit_alpha.png",
    ]

    /// `invalid` entries that Pillow rejects only because of a Pillow-specific safety limit, while
    /// libpng decodes them correctly: treated as lenient (either outcome, no crash). WebImage skips
    /// text chunks entirely, so the decompression bomb in them is never inflated (bounded memory).
    static let pillowOnlyLimits: [String: String] = [
        "pillow/png_decompression_dos.png":
            "Pillow's 1 MB text-chunk limit; WebImage never inflates text chunks, libpng decodes the 1×1 image"
    ]

    /// Why a file cannot decode with the libraries installed here, or nil. Lossless (SOF3) JPEG
    /// needs libjpeg-turbo 3.0; Debian 12 ships 2.1.5. With 3.0 or later these files must pass.
    static func environmentLimit(_ entry: CorpusManifest.Entry) -> String? {
        if entry.jpeg_process == "lossless" && !JPEGCoder.supportsLosslessJPEG {
            return "lossless JPEG needs libjpeg-turbo >= 3.0 (this build links an older one)"
        }
        return nil
    }
}
