import WebImage

/// CMYK to RGB without colour management: the naive formula of Pillow and most libjpeg-based
/// decoders, so that decoded CMYK JPEGs match them. Colour-managed decoders (with the embedded ICC
/// profile) can differ by tens of levels.
enum CMYKConversion {
    /// Rewrites 4-byte C, M, Y, K pixels in place as R, G, B, 255.
    ///
    /// With `inverted` (an Adobe APP14 marker was present, as written by Photoshop) the samples are
    /// stored as 255 − ink and are inverted first. Then, with nk = 255 − K:
    /// R = nk − C·nk/255 (rounded as `(t + (t >> 8)) >> 8` with t = C·nk + 128), and so on.
    static func convertToRGBA(_ pixels: UnsafeMutableBufferPointer<UInt8>, inverted: Bool) {
        let flip: UInt8 = inverted ? 0xFF : 0
        var i = 0
        while i + 3 < pixels.count {
            let notK = 255 - Int32(pixels[i + 3] ^ flip)
            for channel in 0..<3 {
                let ink = Int32(pixels[i + channel] ^ flip)
                let t = ink * notK + 128
                let value = notK - (((t >> 8) + t) >> 8)
                pixels[i + channel] = UInt8(clamping: value)
            }
            pixels[i + 3] = 255
            i += 4
        }
    }
}

extension JPEGDecompression.Header {
    /// Rewrites the decoded CMYK samples in `pixels` (rows in libjpeg's CMYK output) as RGBA: through
    /// the colour converter — the embedded CMYK profile, else its standard one — unless the policy
    /// is ``ColorPolicy/ignore`` or the converter cannot, then by ``CMYKConversion``'s formula.
    func convertInks(_ pixels: UnsafeMutableBufferPointer<UInt8>, options: ImageDecodingOptions, converter: (any ColorConverting)?) {
        guard isCMYK else { return }
        if options.colorPolicy != .ignore, let converter {
            let profile = colorProfile.flatMap { $0.colorSpace == .cmyk ? $0 : nil }
            if converter.convertCMYKToSRGB(pixels, profile: profile, inverted: isAdobeInverted) { return }
        }
        CMYKConversion.convertToRGBA(pixels, inverted: isAdobeInverted)
    }
}
