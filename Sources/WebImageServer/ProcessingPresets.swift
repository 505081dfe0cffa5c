public import Foundation
import WebImage

/// Named lists of URL options, imgproxy's presets: `thumb=rs:fill:256:256/q:70` lets a URL say
/// `pr:thumb` (or `preset:thumb`) instead. A preset named `default` applies to every request,
/// before the URL's own options.
///
/// Presets expand in place into the same option parsing as the URL's segments, so a URL with
/// `pr:thumb` and one spelling out `rs:fill:256:256/q:70` have one canonical key, one cache entry
/// and one ETag. A preset may name other presets (`pr:` inside it); a cycle is refused.
///
/// ```swift
/// var presets = ProcessingPresets()
/// try presets.define("thumb=rs:fill:256:256/q:70")
/// let options = try ProcessingOptions(segments: ["pr:thumb"], presets: presets)
/// ```
public struct ProcessingPresets: Sendable, Hashable {
    /// Each preset's option segments, by name.
    public private(set) var definitions: [String: [String]] = [:]

    /// No presets.
    public init() {}

    /// Presets from a file's text: one `name=options` a line; blank lines and lines starting with
    /// `#` are skipped. A bad line throws ``WebImage/WebImageError/Code/invalidServerConfiguration``
    /// naming its line number.
    public init(fileText text: String) throws {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            do {
                try define(trimmed)
            } catch let error as WebImageError {
                throw WebImageError(.invalidServerConfiguration, "line \(index + 1): \(error.message)")
            }
        }
    }

    /// The presets of the file at `url` (``init(fileText:)``); a file that cannot be read throws
    /// ``WebImage/WebImageError/Code/invalidServerConfiguration`` naming it.
    public init(contentsOf url: URL) throws {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw WebImageError(.invalidServerConfiguration, "the presets file \(url.path) cannot be read: \(error.localizedDescription)")
        }
        do {
            try self.init(fileText: text)
        } catch let error as WebImageError {
            throw WebImageError(.invalidServerConfiguration, "the presets file \(url.path), \(error.message)")
        }
    }

    /// Adds (or replaces) one preset written `name=options` (`options` as in a URL, `/`-separated).
    /// A name is letters, digits, `_` and `-`; the options must not be empty.
    public mutating func define(_ definition: String) throws {
        guard let equals = definition.firstIndex(of: "=") else {
            throw WebImageError(.invalidServerConfiguration, "preset '\(definition)' is not name=options")
        }
        let name = definition[..<equals].trimmingCharacters(in: .whitespaces)
        let options = definition[definition.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            throw WebImageError(.invalidServerConfiguration, "preset name '\(name)' must be letters, digits, _ and -")
        }
        let segments = options.split(separator: "/").map(String.init)
        guard !segments.isEmpty else { throw WebImageError(.invalidServerConfiguration, "preset '\(name)' has no options") }
        definitions[name] = segments
    }

    /// These presets with `other`'s added over them (a name in both takes `other`'s options).
    public func merging(_ other: ProcessingPresets) -> ProcessingPresets {
        var merged = self
        merged.definitions.merge(other.definitions) { $1 }
        return merged
    }

    /// Whether there is no preset.
    public var isEmpty: Bool { definitions.isEmpty }

    /// The option segments of the preset `name`, if defined.
    public subscript(name: String) -> [String]? { definitions[name] }

    /// Checks that every preset parses (with the other presets it names) under `maxDimension`;
    /// throws ``WebImage/WebImageError/Code/invalidServerConfiguration`` naming the first bad
    /// preset (in name order) and why.
    public func validate(maxDimension: Int = 8192) throws {
        for name in definitions.keys.sorted() {
            do {
                var options = ProcessingOptions()
                var metadata = MetadataURLOptions()
                try options.applyPreset(name, presets: self, expanding: [], metadata: &metadata)
                try options.checkDimensions(maxDimension: maxDimension)
            } catch let error as WebImageError {
                throw WebImageError(.invalidServerConfiguration, "preset '\(name)': \(error.message)")
            }
        }
    }
}

extension ProcessingOptions {
    /// The option names that select presets.
    static let presetOptionNames: Set<String> = ["pr", "preset"]

    /// Applies the preset `name`'s segments in place; `expanding` are the presets being expanded
    /// around it (one of them again is a cycle); `sm`/`kcr` are gathered in `metadata`.
    mutating func applyPreset(
        _ name: String, presets: ProcessingPresets, expanding: [String], metadata: inout MetadataURLOptions
    ) throws {
        guard let segments = presets[name] else { throw WebImageError(.invalidProcessingOptions, "unknown preset '\(name)'") }
        guard !expanding.contains(name) else {
            throw WebImageError(.invalidProcessingOptions, "preset '\(name)' names itself (\((expanding + [name]).joined(separator: " → ")))")
        }
        for segment in segments {
            try applySegment(segment[...], presets: presets, expanding: expanding + [name], metadata: &metadata)
        }
    }

    /// Applies one `name:arg` segment: a preset list expands, `sm`/`kcr` go to `metadata` (they
    /// make a policy together, whatever their order), anything else is an option.
    mutating func applySegment(
        _ segment: Substring, presets: ProcessingPresets, expanding: [String], metadata: inout MetadataURLOptions
    ) throws {
        var reader = OptionArguments(segment: segment)
        if Self.presetOptionNames.contains(reader.name) {
            guard !reader.arguments.isEmpty, !reader.arguments.contains(where: \.isEmpty) else { throw reader.bad("needs preset names") }
            for name in reader.arguments { try applyPreset(String(name), presets: presets, expanding: expanding, metadata: &metadata) }
            return
        }
        if try !metadata.apply(&reader) { try apply(&reader) }
        try reader.finish()
    }
}
