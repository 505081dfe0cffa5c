public import WebImage

/// imgproxy's metadata options in a URL, `sm`/`strip_metadata` and `kcr`/`keep_copyright`, and
/// the ``WebImage/MetadataPolicy`` they make together with the service's default, whatever
/// their order:
///
/// | `sm` | `kcr` | policy |
/// |---|---|---|
/// | `1` | `1` | `copyright` |
/// | `1` | `0` | `strip` |
/// | `1` | — | `copyright` when the default is, else `strip` |
/// | `0` | any | `keep` (`keep-all` when that is the default: a URL never adds the GPS position) |
/// | — | `1` | `copyright` when the default is `strip`, else the default |
/// | — | `0` | `strip` when the default is `copyright`, else the default |
/// | — | — | the default |
///
/// ```swift
/// let options = try ProcessingOptions(segments: ["sm:1", "kcr:1"])   // .copyright
/// ```
public struct MetadataURLOptions: Sendable, Hashable {
    /// `sm`'s value, when given.
    public var stripsMetadata: Bool?
    /// `kcr`'s value, when given.
    public var keepsCopyright: Bool?

    /// Neither option given.
    public init() {}

    /// Reads the option `reader` names when it is `sm` or `kcr` (or their long names) and
    /// returns true; false for any other option, leaving `reader` as it was.
    public mutating func apply(_ reader: inout OptionArguments) throws -> Bool {
        switch reader.name {
        case "sm", "strip_metadata": stripsMetadata = try reader.bool()
        case "kcr", "keep_copyright": keepsCopyright = try reader.bool()
        default: return false
        }
        return true
    }

    /// The policy these options make from the service's `default` (see the table above).
    public func policy(default policy: MetadataPolicy) -> MetadataPolicy {
        switch (stripsMetadata, keepsCopyright) {
        case (true, true?): .copyright
        case (true, false?): .strip
        case (true, nil): policy == .copyright ? .copyright : .strip
        case (false, _): policy == .keepAll ? .keepAll : .keep
        case (nil, true?): policy == .strip ? .copyright : policy
        case (nil, false?): policy == .copyright ? .strip : policy
        case (nil, nil): policy
        }
    }
}
