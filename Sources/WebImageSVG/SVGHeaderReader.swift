public import Foundation
public import WebImage

extension SVGCoder: ImageHeaderReading {
    /// Parses the document and reports its intrinsic size, rounded to pixels (see
    /// ``SVGCoder``); whether it has transparent pixels is not known without rendering.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        guard canDecode(data) else { throw WebImageError.badData("not an SVG document (no <svg> root element)") }
        let document = try data.withUnsafeBytes { try SVGDocument($0) }
        return ImageHeader(format: .svg, pixelSize: document.pixelSize, orientation: .up)
    }
}
