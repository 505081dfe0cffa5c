import CLCMS2
import WebImage

/// lcms2's functions, loaded on first use: a process that never meets a colour profile does not
/// map Little CMS. Every operation's first call goes through `require()`, which throws a typed
/// error when lcms2 is missing or too old; the rest of the operation calls through `lcms`.
enum LCMS2Library {
    static let loaded = LoadedLibrary.load("lcms2") { webimage_lcms2_load($0, $1) }

    /// The functions, or `unsupportedFormat` when lcms2 cannot be loaded.
    static func require() throws(WebImageError) -> webimage_lcms2_api { try loaded.get().functions }
}

/// lcms2's functions, for calls after an operation's first one (through `LCMS2Library.require()`).
var lcms: webimage_lcms2_api { LCMS2Library.loaded.loadedFunctions() }
