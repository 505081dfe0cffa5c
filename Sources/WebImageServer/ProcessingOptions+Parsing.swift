public import WebImage
import Foundation

extension ProcessingOptions {
    /// Parses option segments (`name:arg:arg`, as in the URL path) in order, starting from
    /// `colorPolicy` (the service's `--colour`) and `metadataPolicy` (its `--metadata`); an unknown name, a
    /// missing or bad argument, or a size over `maxDimension` throws ``WebImage/WebImageError``
    /// code ``WebImage/WebImageError/Code/invalidProcessingOptions`` (size: `tooLarge`) naming it.
    ///
    /// `pr:NAME[:NAME…]` (or `preset:`) expands `presets` in place, and their `default` applies
    /// before the segments. With `onlyPresets` (imgproxy's `IMGPROXY_ONLY_PRESETS`) every segment
    /// is a preset list: `pr:a:b`, or imgproxy's bare `a:b`; any other option is refused.
    ///
    /// ```swift
    /// let options = try ProcessingOptions(segments: ["rs:fill:256:256", "q:70", "f:webp"])
    /// ```
    public init(
        segments: [Substring], maxDimension: Int = 8192, colorPolicy: ColorPolicy = .sRGB,
        metadataPolicy: MetadataPolicy = .strip, presets: ProcessingPresets = ProcessingPresets(), onlyPresets: Bool = false
    ) throws {
        self.init()
        self.colorPolicy = colorPolicy
        var metadata = MetadataURLOptions()
        if presets["default"] != nil { try applyPreset("default", presets: presets, expanding: [], metadata: &metadata) }
        for segment in segments {
            if onlyPresets {
                let reader = OptionArguments(segment: segment)
                let names = Self.presetOptionNames.contains(reader.name) ? reader.arguments : segment.split(separator: ":", omittingEmptySubsequences: false)
                guard !names.isEmpty, !names.contains(where: \.isEmpty) else { throw reader.bad("needs preset names") }
                for name in names {
                    guard presets[String(name)] != nil else {
                        throw WebImageError(.invalidProcessingOptions, "unknown preset '\(name)' (only presets are accepted in URLs)")
                    }
                    try applyPreset(String(name), presets: presets, expanding: [], metadata: &metadata)
                }
            } else {
                try applySegment(segment, presets: presets, expanding: [], metadata: &metadata)
            }
        }
        self.metadataPolicy = metadata.policy(default: metadataPolicy)
        try checkDimensions(maxDimension: maxDimension)
        applyDevicePixelRatio(maxDimension: maxDimension)
    }

    /// Throws `tooLarge` when a size asked for is over `maxDimension`.
    func checkDimensions(maxDimension: Int) throws {
        for (value, name) in [(width, "width"), (height, "height"), (crop?.width ?? 0, "crop width"), (crop?.height ?? 0, "crop height")]
        where value > maxDimension {
            throw WebImageError(.tooLarge, "\(name) \(value) is over the limit of \(maxDimension) pixels")
        }
    }

    mutating func apply(_ reader: inout OptionArguments) throws {
        switch reader.name {
        case "rs", "resize":
            if let type = reader.optionalText() { resizingType = try Self.resizingType(type) }
            try readSize(&reader)
            if let flag = try reader.optionalBool() { enlarge = flag }
        case "s", "size":
            try readSize(&reader)
            if let flag = try reader.optionalBool() { enlarge = flag }
        case "rt", "resizing_type": resizingType = try Self.resizingType(try reader.text())
        case "w", "width": width = try reader.dimension()
        case "h", "height": height = try reader.dimension()
        case "el", "enlarge": enlarge = try reader.bool()
        case "pd", "pad": pad = try reader.bool()
        case "g", "gravity":
            let name = try reader.text()
            guard let anchor = GravityCropTransformer.Anchor(parsing: name) else {
                throw WebImageError(.invalidProcessingOptions, "unknown gravity '\(name)'")
            }
            gravity = anchor
        case "fi", "filter": filter = try Self.filter(try reader.text())
        case "q", "quality":
            let value = try reader.integer()
            guard (1...100).contains(value) else { throw reader.bad("must be 1–100") }
            quality = value
        case "fq", "format_quality": try readFormatQuality(&reader)
        case "dpr": try readDevicePixelRatio(&reader)
        case "raw": raw = try reader.bool()
        case "cb", "cachebuster": cacheBuster = reader.optionalText()
        case "f", "format", "ext":
            let name = try reader.text()
            if name == "auto" {
                format = .auto
            } else {
                guard let named = ImageFormat(fileExtension: name) else { throw reader.bad("unknown format '\(name)'") }
                format = .explicit(named)
            }
        case "bg", "background": background = try reader.color()
        case "scp", "strip_color_profile": colorPolicy = try reader.bool() ? .sRGB : .keep
        case "wm", "watermark": watermark = try Watermark(arguments: &reader)
        case "wmu", "watermark_url":
            let encoded = try reader.text()
            guard let bytes = Data(base64URLEncoded: encoded), let url = String(data: bytes, encoding: .utf8), !url.isEmpty else {
                throw reader.bad("'\(encoded)' is not a base64url-encoded URL")
            }
            watermarkURL = url
        case "mb", "max_bytes":
            let value = try reader.integer()
            guard value >= 0 else { throw reader.bad("must be 0 (no limit) or more") }
            maxBytes = value == 0 ? nil : value
        default:
            guard let kind = Edit.Kind(named: reader.name) else {
                throw WebImageError(.invalidProcessingOptions, "unknown option '\(reader.name)'")
            }
            let edit = try Edit.parse(kind, arguments: &reader)
            try apply(edit, reader: reader)
        }
    }

    /// Geometry edits take their fixed places (the last of each wins); effects queue in URL order.
    private mutating func apply(_ edit: Edit?, reader: OptionArguments) throws {
        switch edit {
        case nil: break
        case .rotate(let degrees): rotate = degrees
        case .flip(let horizontal, let vertical): (flipHorizontal, flipVertical) = (horizontal, vertical)
        case .crop(let region):
            guard region.origin == nil else { throw reader.bad("an offset (+X+Y) is not supported in URLs; use W:H[:GRAVITY]") }
            crop = region
        case let effect?: effects.append(effect)
        }
    }

    private mutating func readSize(_ reader: inout OptionArguments) throws {
        if let value = try reader.optionalDimension() { width = value }
        if let value = try reader.optionalDimension() { height = value }
    }

    static func resizingType(_ text: String) throws -> ResizingType {
        guard let type = ResizingType(rawValue: text) else {
            throw WebImageError(
                .invalidProcessingOptions,
                "unknown resizing type '\(text)' (\(ResizingType.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return type
    }

    static func filter(_ text: String) throws -> Resampler.Filter {
        switch text {
        case "lanczos", "lanczos3": return .lanczos3
        case "mitchell": return .mitchell
        case "bilinear", "linear": return .bilinear
        case "nearest": return .nearest
        default: throw WebImageError(.invalidProcessingOptions, "unknown filter '\(text)' (lanczos, mitchell, bilinear, nearest)")
        }
    }
}
