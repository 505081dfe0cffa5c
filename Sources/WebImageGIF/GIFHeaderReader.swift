public import Foundation
public import WebImage

extension GIFCoder: ImageHeaderReading {
    /// Reads a GIF's header by walking its blocks, without LZW-decoding any frame: the canvas
    /// (the logical screen enlarged to contain frame 0), the complete frames and their delays,
    /// the NETSCAPE2.0 loop count (1 when absent), and alpha (a transparent index, or a frame
    /// that clears to the background), the colour profile of the `ICCRGBG1` extension and the XMP
    /// of the `XMP Data` extension.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        let (container, profile, xmp) = try data.withUnsafeBytes { bytes in
            let container = try GIFContainer(parsing: bytes)
            let extensions = container.applicationExtensions
            return (container, extensions.colorProfile(in: bytes), extensions.xmp(in: bytes))
        }
        let animated = container.frames.count > 1
        let clears = animated && container.frames.contains { $0.disposal == .background }
        return ImageHeader(
            format: .gif, pixelSize: container.canvasSize, frameCount: container.frames.count,
            loopCount: animated ? (container.rawLoopCount ?? 1) : nil,
            frameDurations: animated ? container.frames.map(\.duration) : nil,
            storedFrameDurations: animated ? container.frames.map(\.storedDuration) : nil,
            hasAlpha: container.hasTransparency || clears, orientation: .up, colorProfile: profile,
            metadata: xmp.map { ImageMetadata(xmp: $0) })
    }
}
