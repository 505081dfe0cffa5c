/// The function table of a C library that a codec loads on first use (`dlopen`), for the codec
/// modules: libavif, libheif and libjxl are not linked, so a process that never meets their
/// formats does not map them at start (docs/performance.md, "Start-up time").
package struct LoadedLibrary<Functions>: @unchecked Sendable {  // C function pointers, written once before publication
    /// The table: immutable pointers into a library that is never unloaded.
    package let functions: Functions

    /// Runs `load` (a C loader that fills `message` on failure) once and keeps its table, or an
    /// `unsupportedFormat` error naming `library` and the loader's reason.
    package static func load(
        _ library: String, _ load: (UnsafeMutablePointer<CChar>, Int) -> UnsafePointer<Functions>?
    ) -> Result<LoadedLibrary, WebImageError> {
        var message = [CChar](repeating: 0, count: 512)
        let table = message.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { load($0, buffer.count) }
        }
        guard let table else {
            let reason = String(nulTerminated: message)
            return .failure(WebImageError(.unsupportedFormat, "\(library) is not available: \(reason)"))
        }
        return .success(LoadedLibrary(functions: table.pointee))
    }
}

extension Result where Failure == WebImageError {
    /// The table of a library that an earlier call in the same operation loaded (each operation's
    /// first call goes through `get()`, which throws instead).
    package func loadedFunctions<Functions>() -> Functions where Success == LoadedLibrary<Functions> {
        guard case .success(let library) = self else {
            preconditionFailure("a lazily loaded library was used before an operation loaded it")
        }
        return library.functions
    }
}
