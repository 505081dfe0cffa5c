@_exported public import WebImage
@_exported public import WebImageAVIF
@_exported public import WebImageColor
@_exported public import WebImageGIF
@_exported public import WebImageHEIF
@_exported public import WebImageJPEG
@_exported public import WebImageJXL
@_exported public import WebImagePNG
@_exported public import WebImageSVG
@_exported public import WebImageTIFF
@_exported public import WebImageWebP

extension ImageCodersManager {
    /// A manager holding every built-in coder: GIF, PNG/APNG, JPEG, WebP, JPEG XL, TIFF, SVG, AVIF
    /// and HEIF/HEIC (the last asked first), converting embedded colour profiles to sRGB with
    /// ``WebImageColor/LCMSColorConverter/shared`` (``WebImage/ImageDecodingOptions/colorPolicy``).
    ///
    /// ```swift
    /// import WebImageCodecs
    /// let image = try ImageCodersManager.standard().decode(data)
    /// ```
    public static func standard() -> ImageCodersManager {
        ImageCodersManager(
            coders: [
                GIFCoder(), PNGCoder(colorConverter: LCMSColorConverter.shared),
                JPEGCoder(colorConverter: LCMSColorConverter.shared), WebPCoder(),
                JXLCoder(colorConverter: LCMSColorConverter.shared), TIFFCoder(colorConverter: LCMSColorConverter.shared),
                SVGCoder(), AVIFCoder(colorConverter: LCMSColorConverter.shared),
                HEIFCoder(colorConverter: LCMSColorConverter.shared),
            ],
            colorConverter: LCMSColorConverter.shared)
    }
}
