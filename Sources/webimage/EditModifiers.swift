import ArgumentParser
import WebImageCodecs

/// `--gravity`: a compass position, or `attention` (the most detailed region); imgproxy's short
/// names (`soea`, `sm`) too, as the service reads them.
struct GravityArgument: ExpressibleByArgument {
    let anchor: GravityCropTransformer.Anchor

    static let allNames = ImageGravity.allCases.map(\.rawValue) + ["attention"]

    init?(argument: String) {
        guard let anchor = GravityCropTransformer.Anchor(parsing: argument) else { return nil }
        self.anchor = anchor
    }
}

/// `--filter`: the resampling kernel of `--resize`.
enum FilterArgument: String, ExpressibleByArgument, CaseIterable {
    case lanczos, mitchell, bilinear, nearest

    var filter: Resampler.Filter {
        switch self {
        case .lanczos: .lanczos3
        case .mitchell: .mitchell
        case .bilinear: .bilinear
        case .nearest: .nearest
        }
    }
}
