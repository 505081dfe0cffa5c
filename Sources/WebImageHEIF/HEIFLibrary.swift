import CHEIF
import WebImage

/// libheif's functions, loaded on first use: the binary does not link libheif (docs/performance.md, "Start-up
/// time"). Every operation's first call goes through `require()`, which throws a typed error when
/// libheif is missing or of another version; the rest of the operation calls through `heif`.
enum HEIFLibrary {
    static let loaded = LoadedLibrary.load("libheif") { webimage_heif_load($0, $1) }

    /// The functions, or `unsupportedFormat` when libheif cannot be loaded.
    static func require() throws(WebImageError) -> webimage_heif_api { try loaded.get().functions }
}

/// libheif's functions, for calls after an operation's first one (through `HEIFLibrary.require()`).
var heif: webimage_heif_api { HEIFLibrary.loaded.loadedFunctions() }
