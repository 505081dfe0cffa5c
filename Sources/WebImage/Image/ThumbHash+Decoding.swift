public import Foundation

extension ThumbHash {
    /// The hash of the image `data` holds, from a thumbnail decode within ``maxSide``×``maxSide``:
    /// the decoders' reduced decoding keeps the memory small where the format allows it (a JPEG at
    /// its DCT scale, WebP straight to the box); the first frame, displayed upright. Sources over
    /// `maxPixelCount` (read from the header) are refused before decoding (`tooLarge`).
    ///
    /// ```swift
    /// let hash = try ThumbHash.encode(imageData: data, coders: .standard())
    /// ```
    public static func encode(
        imageData data: Data, coders: ImageCodersManager, maxPixelCount: Int = ImageDecodingOptions.defaultMaxPixelCount
    ) throws -> [UInt8] {
        let box = PixelSize(width: maxSide, height: maxSide)
        let options = ImageDecodingOptions(firstFrameOnly: true, thumbnailPixelSize: box, maxPixelCount: maxPixelCount)
        let decoded = try coders.decode(data, options: options)
        var image = Image(pixels: decoded.pixels.oriented(decoded.orientation), format: decoded.format)
        if image.pixelSize.width > maxSide || image.pixelSize.height > maxSide {
            image = try ResizeTransformer(size: box, mode: .aspectFit).transform(image)
        }
        return try encode(image.pixels)
    }
}
