import Foundation
import WebImage

/// The resize one URL asks for, resolved against the size of the image entering it: the
/// `auto` type decided, a 0 width or height computed from the aspect ratio, the result checked
/// against the dimension limit, and the reduced decode size it allows.
struct ResizePlan {
    var type: ProcessingOptions.ResizingType
    var target: PixelSize
    var enlarge: Bool
    var pad: Bool
    var filter: Resampler.Filter
    var gravity: GravityCropTransformer.Anchor

    /// `nil` when the URL asks for no resize; `input` is the displayed size entering the resize
    /// (after any crop). A target side over `maxDimension` throws `tooLarge`.
    init?(options: ProcessingOptions, input: PixelSize, maxDimension: Int) throws {
        guard options.width > 0 || options.height > 0, input.width > 0, input.height > 0 else { return nil }
        var width = options.width
        var height = options.height
        if width == 0 { width = max(1, Int((Double(height) * Double(input.width) / Double(input.height)).rounded())) }
        if height == 0 { height = max(1, Int((Double(width) * Double(input.height) / Double(input.width)).rounded())) }
        guard width <= maxDimension, height <= maxDimension else {
            throw WebImageError(.tooLarge, "the result would be \(width)×\(height), over the limit of \(maxDimension) per side")
        }
        target = PixelSize(width: width, height: height)
        type = options.resizingType
        if type == .auto {
            type = (input.width >= input.height) == (width >= height) ? .fill : .fit
        }
        enlarge = options.enlarge && type != .fillDown
        pad = options.pad
        filter = options.filter
        gravity = options.gravity
    }

    /// The scale from `input` to the result, before the enlarge rule.
    private func scale(from input: PixelSize) -> Double {
        let x = Double(target.width) / Double(input.width)
        let y = Double(target.height) / Double(input.height)
        return type == .fit ? min(x, y) : max(x, y)
    }

    /// A box to decode into when the resize reduces by more than half: twice the size needed, so
    /// the final resample still has room (JPEG decodes it by DCT scaling, far cheaper).
    func decodeBox(displayed: PixelSize) -> PixelSize? {
        let scale = scale(from: displayed)
        guard scale < 0.5 else { return nil }
        return PixelSize(
            width: Int((Double(displayed.width) * scale * 2).rounded(.up)),
            height: Int((Double(displayed.height) * scale * 2).rounded(.up)))
    }

    /// The library's transformers for this resize of an image entering at `input` (displayed).
    func transformers(entering input: PixelSize) -> [any ImageTransforming] {
        switch type {
        case .fit, .auto:
            return [ResizeTransformer(size: target, mode: .aspectFit, allowsUpscaling: enlarge, padsToSize: pad, filter: filter)]
        case .force:
            return [ResizeTransformer(size: target, mode: .fill, allowsUpscaling: enlarge, filter: filter)]
        case .fill, .fillDown:
            var steps: [any ImageTransforming] = []
            if gravity != .gravity(.center) {
                // The largest window of the target's proportions, placed by the gravity, then scaled.
                let scale = min(Double(input.width) / Double(target.width), Double(input.height) / Double(target.height))
                let window = PixelSize(
                    width: min(input.width, max(1, Int((Double(target.width) * scale).rounded()))),
                    height: min(input.height, max(1, Int((Double(target.height) * scale).rounded()))))
                steps.append(GravityCropTransformer(size: window, anchor: gravity))
            }
            steps.append(ResizeTransformer(size: target, mode: .aspectFill, allowsUpscaling: enlarge, filter: filter))
            return steps
        }
    }
}

extension ResizePlan {
    /// The size of the result for an image entering at `input` (displayed), for estimates.
    func resultSize(entering input: PixelSize) -> PixelSize {
        let scale = min(Double(target.width) / Double(input.width), Double(target.height) / Double(input.height))
        switch type {
        case .force: return target
        case .fill, .fillDown:
            return enlarge || (input.width >= target.width && input.height >= target.height)
                ? target : PixelSize(width: min(input.width, target.width), height: min(input.height, target.height))
        case .fit, .auto:
            if pad { return target }
            let applied = enlarge ? scale : min(1, scale)
            return PixelSize(
                width: max(1, Int((Double(input.width) * applied).rounded())), height: max(1, Int((Double(input.height) * applied).rounded())))
        }
    }
}
