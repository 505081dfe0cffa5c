public import WebImage

extension ProcessingOptions {
    /// The largest `dpr` a URL may ask for.
    public static let maxDevicePixelRatio = 8.0

    /// Per-format qualities written `webp=75,avif=55` (`serve --format-quality`, imgproxy's
    /// `IMGPROXY_FORMAT_QUALITY`); a format name the service does not know, or a quality outside
    /// 1–100, throws ``WebImage/WebImageError/Code/invalidProcessingOptions`` naming it.
    public static func formatQualities(parsing text: String) throws -> [ImageFormat: Int] {
        var table: [ImageFormat: Int] = [:]
        for item in text.split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { throw WebImageError(.invalidProcessingOptions, "'\(item)' is not FORMAT=QUALITY") }
            try table[format(named: pair[0])] = quality(pair[1])
        }
        return table
    }

    /// The quality a result in `format` is encoded at: `q`, else this URL's `fq` for the format,
    /// else the service's (`defaults`) for it, else `defaultQuality`.
    func quality(for format: ImageFormat, defaults: [ImageFormat: Int], defaultQuality: Int) -> Int {
        quality ?? formatQuality[format] ?? defaults[format] ?? defaultQuality
    }

    /// `avif:55:webp:75`: a per-format table in a fixed order, as keys write it.
    static func formatQualityKey(_ table: [ImageFormat: Int]) -> String {
        table.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue):\($0.value)" }.joined(separator: ":")
    }

    /// `fq:FORMAT:Q[:FORMAT:Q…]`: adds to (or overrides) ``formatQuality``.
    mutating func readFormatQuality(_ reader: inout OptionArguments) throws {
        guard !reader.arguments.isEmpty, reader.arguments.count.isMultiple(of: 2) else {
            throw reader.bad("needs FORMAT:QUALITY pairs")
        }
        while let name = reader.optionalText() {
            let value = try reader.text()
            formatQuality[try Self.format(named: name)] = try Self.quality(value)
        }
    }

    /// `dpr:N`: multiplies the target size; 0 < N ≤ ``maxDevicePixelRatio``.
    mutating func readDevicePixelRatio(_ reader: inout OptionArguments) throws {
        let value = try reader.number(in: 0...Self.maxDevicePixelRatio)
        guard value > 0 else { throw reader.bad("must be greater than 0") }
        devicePixelRatio = value
    }

    /// Applies ``devicePixelRatio`` to the width and height, scaled down together when a side would
    /// pass `maxDimension` (so the result limit caps it, never refuses it).
    mutating func applyDevicePixelRatio(maxDimension: Int) {
        guard devicePixelRatio != 1, width > 0 || height > 0 else { return }
        let ratio = min(devicePixelRatio, Double(maxDimension) / Double(max(width, height)))
        if width > 0 { width = max(1, Int((Double(width) * ratio).rounded())) }
        if height > 0 { height = max(1, Int((Double(height) * ratio).rounded())) }
    }

    private static func format(named name: String) throws -> ImageFormat {
        guard let format = ImageFormat(fileExtension: name) else { throw WebImageError(.invalidProcessingOptions, "unknown format '\(name)'") }
        return format
    }

    private static func quality(_ text: String) throws -> Int {
        guard let value = Int(text), (1...100).contains(value) else {
            throw WebImageError(.invalidProcessingOptions, "quality '\(text)' must be 1–100")
        }
        return value
    }
}
