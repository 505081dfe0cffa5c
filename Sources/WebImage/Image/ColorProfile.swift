public import Foundation

/// An ICC colour profile embedded in an image file: its bytes, checked and described by their
/// 128-byte header (ICC.1, section 7.2).
///
/// Decoders attach the profile they find to ``Image/colorProfile``; with the default
/// ``ImageDecodingOptions/colorPolicy`` the pixels are converted to sRGB and the profile dropped.
///
/// ```swift
/// if let profile = image.colorProfile {
///     print(profile.colorSpace, profile.data.count, "bytes")
/// }
/// ```
public struct ColorProfile: Sendable, Hashable {
    /// The colour spaces a profile's data can be in (its header's data colour space field).
    public enum ColorSpace: String, Sendable, Hashable {
        /// Three channels, red, green and blue.
        case rgb
        /// One channel.
        case gray
        /// Four inks.
        case cmyk
        /// Anything else (Lab, XYZ, YCbCr, n-colour…).
        case other
    }

    /// The profile as embedded, byte for byte.
    public let data: Data
    /// What the pixels it describes hold.
    public let colorSpace: ColorSpace

    /// The largest profile read from a file (the largest real-world profiles, with big lookup
    /// tables, are a few MB).
    public static let maxByteCount = 16 << 20

    /// The profile in `data`, or nil when it is not an ICC profile: shorter than its header,
    /// without the `acsp` signature, declaring more bytes than it has, or over ``maxByteCount``.
    /// Bytes after the declared size are dropped.
    public init?(iccData data: Data) {
        guard data.count >= 132, data.count <= Self.maxByteCount else { return nil }
        let bytes = [UInt8](data.prefix(40))
        func word(_ offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        guard word(36) == 0x6163_7370 else { return nil }  // 'acsp'
        let declared = Int(word(0))
        guard declared >= 132, declared <= data.count else { return nil }
        self.data = declared == data.count ? data : Data(data.prefix(declared))
        switch word(16) {
        case 0x5247_4220: colorSpace = .rgb  // 'RGB '
        case 0x4752_4159: colorSpace = .gray  // 'GRAY'
        case 0x434D_594B: colorSpace = .cmyk  // 'CMYK'
        default: colorSpace = .other
        }
    }
}

/// What decoding does with an embedded colour profile.
///
/// SDWebImage, Kingfisher and Nuke get ``sRGB`` from ImageIO; libvips and imgproxy do the same
/// with lcms2.
public enum ColorPolicy: String, Sendable, Hashable, CaseIterable {
    /// Convert the pixels to sRGB through the profile (the default, as the web expects): a
    /// Display P3 or Adobe RGB photo looks as its camera meant it.
    case sRGB = "srgb"
    /// Leave the pixels as stored and keep the profile on ``Image/colorProfile``.
    case keep
    /// Leave the pixels as stored and drop the profile (the fastest, and wrong for wide-gamut
    /// sources).
    case ignore
}

/// Converts pixels described by a colour profile to sRGB: `WebImageColor`'s lcms2 converter,
/// which ``ImageCodersManager`` applies after decoding under ``ColorPolicy/sRGB``.
public protocol ColorConverting: Sendable {
    /// `image`'s pixels (and frames) converted from ``Image/colorProfile`` to sRGB, without a
    /// profile; `image` itself, without its profile, when that profile is sRGB already. Throws
    /// ``WebImageError/Code/badImageData`` for a profile that cannot be used.
    func convertToSRGB(_ image: Image) throws -> Image

    /// Rewrites 4-byte C, M, Y, K samples in place as sRGB R, G, B, 255 through `profile`, or
    /// through the converter's standard CMYK profile when the file has none. `inverted`: the
    /// samples are stored as 255 − ink (Adobe's APP14 convention, as Photoshop writes).
    ///
    /// Returns false, leaving the samples as they were, when the converter cannot (no colour
    /// engine, no standard profile, a profile it cannot use): the decoder then converts by
    /// formula. The default implementation always returns false.
    func convertCMYKToSRGB(_ samples: UnsafeMutableBufferPointer<UInt8>, profile: ColorProfile?, inverted: Bool) -> Bool

    /// The transform that takes 16-bit RGBA samples described by `profile` to 8-bit sRGB in one
    /// step, or nil when converting would move nothing (an sRGB or near-sRGB profile) or the
    /// converter cannot (no colour engine, a profile it cannot use, a CMYK profile). A grey
    /// profile's transform reads grey from the red sample (decoders expand grey to R = G = B).
    ///
    /// Decoders of high-bit-depth sources ask for it under ``ColorPolicy/sRGB`` before they pick
    /// a sample depth: with a transform they decode at 16 bits and hand the samples over band by
    /// band; with nil they decode to 8 bits as usual. The default implementation returns nil.
    func wideTransform(for profile: ColorProfile) -> (any WideColorTransform)?
}

extension ColorConverting {
    public func convertCMYKToSRGB(
        _ samples: UnsafeMutableBufferPointer<UInt8>, profile: ColorProfile?, inverted: Bool
    ) -> Bool {
        false
    }

    public func wideTransform(for profile: ColorProfile) -> (any WideColorTransform)? {
        nil
    }
}
