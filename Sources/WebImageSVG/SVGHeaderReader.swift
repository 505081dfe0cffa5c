public import Foundation
public import WebImage

extension SVGCoder: ImageHeaderReading {
    /// Parses the document and reports its intrinsic size, rounded to pixels (see
    /// ``SVGCoder``); whether it has transparent pixels is not known without rendering.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        guard canDecode(data) else { throw WebImageError.badData("not an SVG document (no <svg> root element)") }
        try SVGComplexity(data).check(against: complexityLimits, outputPixels: 0)
        let document = try open(data, maxPixelCount: ImageDecodingOptions().maxPixelCount)
        return ImageHeader(format: .svg, pixelSize: document.pixelSize, orientation: .up)
    }
}
