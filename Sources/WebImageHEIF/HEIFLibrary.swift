import CHEIF
import WebImage

/// libheif's functions, loaded on first use: the binary does not link libheif, so a process that
/// never meets a HEIF file does not map it at start (README, "Start-up").
///
/// Every operation starts with a function reached through require(), which throws a typed
/// error when the library is missing or of another version; the rest of the module then calls
/// through `heif`.
enum HEIFLibrary {
    /// The function table, or why libheif could not be loaded.
    static let loaded: Result<Table, WebImageError> = {
        var message = [CChar](repeating: 0, count: 512)
        guard let table = webimage_heif_load(&message, message.count) else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(WebImageError(.unsupportedFormat, "libheif is not available: \(reason)"))
        }
        return .success(Table(functions: table.pointee))
    }()

    /// The functions, or a typed error when libheif cannot be loaded.
    static func require() throws(WebImageError) -> webimage_heif_api { try loaded.get().functions }

    /// The loaded table (immutable function pointers into a library that is never unloaded).
    struct Table: @unchecked Sendable {  // C function pointers, written once before publication
        let functions: webimage_heif_api
    }
}

/// libheif's functions, for code that runs after an operation's first call went through
/// `HEIFLibrary.require()` (so the library is loaded).
var heif: webimage_heif_api {
    guard case .success(let table) = HEIFLibrary.loaded else {
        preconditionFailure("libheif used before HEIFLibrary.require() succeeded")
    }
    return table.functions
}
