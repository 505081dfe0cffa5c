import CJXL
import WebImage

/// libjxl's functions, loaded on first use: the binary does not link libjxl (docs/performance.md, "Start-up
/// time"). Every operation's first call goes through `require()`, which throws a typed error when
/// libjxl is missing or of another version; the rest of the operation calls through `jxl`.
enum JXLLibrary {
    static let loaded = LoadedLibrary.load("libjxl") { webimage_jxl_load($0, $1) }

    /// The functions, or `unsupportedFormat` when libjxl cannot be loaded.
    static func require() throws(WebImageError) -> webimage_jxl_api { try loaded.get().functions }
}

/// libjxl's functions, for calls after an operation's first one (through `JXLLibrary.require()`).
var jxl: webimage_jxl_api { JXLLibrary.loaded.loadedFunctions() }
