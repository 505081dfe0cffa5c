import WebImage

/// Encodes one RGBA8 buffer as a PNG: RGB when every pixel is opaque, straight-alpha RGBA otherwise.
enum PNGStillEncoder {
    /// The PNG bytes for `pixels`; `opaque` chooses RGB over RGBA (pass `pixels.isOpaque`, or a
    /// value shared by every frame of an animation).
    static func encode(_ pixels: PixelBuffer, opaque: Bool, compressionLevel: Int, interlaced: Bool = false) throws
        -> [UInt8]
    {
        let straight = pixels.unpremultiplied()
        var format = PNGWriteFormat(colorType: opaque ? .rgb : .rgba)
        format.stripFiller = opaque
        format.interlaced = interlaced
        format.compressionLevel = compressionLevel
        return try LibPNGWriter.write(
            rows: straight.bytes, stride: straight.bytesPerRow, width: straight.width, height: straight.height,
            format: format)
    }
}
