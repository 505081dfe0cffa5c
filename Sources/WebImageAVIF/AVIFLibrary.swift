import CAVIF
import WebImage

/// libavif's functions, loaded on first use: the binary does not link libavif (docs/performance.md, "Start-up
/// time"). Every operation's first call goes through `require()`, which throws a typed error when
/// libavif is missing or of another version; the rest of the operation calls through `avif`.
enum AVIFLibrary {
    static let loaded = LoadedLibrary.load("libavif") { webimage_avif_load($0, $1) }

    /// The functions, or `unsupportedFormat` when libavif cannot be loaded.
    static func require() throws(WebImageError) -> webimage_avif_api { try loaded.get().functions }
}

/// libavif's functions, for calls after an operation's first one (through `AVIFLibrary.require()`).
var avif: webimage_avif_api { AVIFLibrary.loaded.loadedFunctions() }
