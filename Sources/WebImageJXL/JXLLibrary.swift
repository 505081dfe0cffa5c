import CJXL
import WebImage

/// libjxl's functions, loaded on first use: the binary does not link libjxl, so a process that
/// never meets a JXL file does not map it at start (README, "Start-up").
///
/// Every operation starts with a function reached through require(), which throws a typed
/// error when the library is missing or of another version; the rest of the module then calls
/// through `jxl`.
enum JXLLibrary {
    /// The function table, or why libjxl could not be loaded.
    static let loaded: Result<Table, WebImageError> = {
        var message = [CChar](repeating: 0, count: 512)
        guard let table = webimage_jxl_load(&message, message.count) else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(WebImageError(.unsupportedFormat, "libjxl is not available: \(reason)"))
        }
        return .success(Table(functions: table.pointee))
    }()

    /// The functions, or a typed error when libjxl cannot be loaded.
    static func require() throws(WebImageError) -> webimage_jxl_api { try loaded.get().functions }

    /// The loaded table (immutable function pointers into a library that is never unloaded).
    struct Table: @unchecked Sendable {  // C function pointers, written once before publication
        let functions: webimage_jxl_api
    }
}

/// libjxl's functions, for code that runs after an operation's first call went through
/// `JXLLibrary.require()` (so the library is loaded).
var jxl: webimage_jxl_api {
    guard case .success(let table) = JXLLibrary.loaded else {
        preconditionFailure("libjxl used before JXLLibrary.require() succeeded")
    }
    return table.functions
}
