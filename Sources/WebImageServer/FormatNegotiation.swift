import Foundation
import WebImage

/// The output format of one request, as far as it can be known before the source is fetched.
enum OutputChoice: Sendable, Hashable {
    /// This format, asked for explicitly or chosen by `Accept`.
    case format(ImageFormat)
    /// The source's own format (auto, and the client accepts none of JPEG XL, AVIF and WebP).
    case sourceFormat

    /// The text that keys caches.
    var key: String {
        switch self {
        case .format(let format): format.rawValue
        case .sourceFormat: "source"
        }
    }

    /// The choice for `format` given the request's `Accept` value: JPEG XL (only when `offersJXL`),
    /// then AVIF (unless `prefersAVIF` is off), then WebP, when the client lists them (a `q=0`
    /// refuses) and they can be encoded, else the source's format.
    static func negotiate(
        _ format: ProcessingOptions.Format, accept: String?, canEncode: (ImageFormat) -> Bool, prefersAVIF: Bool,
        offersJXL: Bool = false
    ) -> OutputChoice {
        if case .explicit(let format) = format { return .format(format) }
        let accepted = acceptedTypes(accept)
        if offersJXL, accepted.contains("image/jxl"), canEncode(.jpegXL) { return .format(.jpegXL) }
        if prefersAVIF, accepted.contains("image/avif"), canEncode(.avif) { return .format(.avif) }
        if accepted.contains("image/webp"), canEncode(.webp) { return .format(.webp) }
        return .sourceFormat
    }

    /// The media types an `Accept` value lists with a non-zero quality, lowercased.
    static func acceptedTypes(_ accept: String?) -> Set<String> {
        guard let accept else { return [] }
        var types = Set<String>()
        for item in accept.split(separator: ",") {
            let parameters = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let type = parameters.first?.lowercased(), !type.isEmpty else { continue }
            let refused = parameters.dropFirst().contains { parameter in
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                return pair.count == 2 && pair[0].lowercased() == "q" && (Double(pair[1]) ?? 1) <= 0
            }
            if !refused { types.insert(type) }
        }
        return types
    }

    /// The format to encode a source of `sourceFormat` in: the choice, or for `sourceFormat` the
    /// source's own when it can be encoded (an APNG stays PNG), else PNG.
    func resolve(sourceFormat: ImageFormat, canEncode: (ImageFormat) -> Bool) -> ImageFormat {
        switch self {
        case .format(let format): return format
        case .sourceFormat:
            let format = sourceFormat == .apng ? .png : sourceFormat
            return canEncode(format) ? format : .png
        }
    }
}
