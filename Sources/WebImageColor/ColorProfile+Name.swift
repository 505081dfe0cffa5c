import CLCMS2
public import WebImage

extension ColorProfile {
    /// The profile's own name, its description tag (`Display P3`, `Adobe RGB (1998)`), read
    /// with lcms2; nil when it has none or lcms2 cannot read the profile.
    ///
    /// ```swift
    /// if let profile = try coders.readHeader(data).colorProfile { print(profile.name ?? "unnamed") }
    /// ```
    public var name: String? {
        guard let api = try? LCMS2Library.require() else { return nil }
        let handle = data.withUnsafeBytes { api.cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        guard let handle else { return nil }
        defer { _ = api.cmsCloseProfile(handle) }
        var text = [CChar](repeating: 0, count: 256)
        let written = api.cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &text, cmsUInt32Number(text.count))
        guard written > 1 else { return nil }
        let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }
}
