import CLibraryLoader
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The loader behind the lazily loaded codec libraries: a missing library or function is an error
/// with its reason, never a crash, and a loaded library fills the table.
@Suite("Loading a library on first use")
struct LibraryLoaderTests {
    /// Opens a library made of `names` and `symbols`; returns the status, the slots and the message.
    static func open(names: [String], symbols: [String]) -> (status: Int32, slots: [UnsafeMutableRawPointer?], message: String) {
        let cNames = names.map { strdup($0) } + [nil]
        let cSymbols = symbols.map { strdup($0) }
        defer { (cNames + cSymbols).forEach { free($0) } }
        var slots = [UnsafeMutableRawPointer?](repeating: nil, count: symbols.count)
        var message = [CChar](repeating: 0, count: 512)
        let status = cNames.map { UnsafePointer($0) }.withUnsafeBufferPointer { namePointers in
            cSymbols.map { UnsafePointer($0) }.withUnsafeBufferPointer { symbolPointers in
                slots.withUnsafeMutableBufferPointer { slotPointers in
                    var library = webimage_library()  // zeroed: glibc's zero mutex is PTHREAD_MUTEX_INITIALIZER
                    library.names = namePointers.baseAddress
                    library.symbols = symbolPointers.baseAddress
                    library.slots = slotPointers.baseAddress
                    library.count = symbols.count
                    return webimage_library_open(&library, &message, message.count)
                }
            }
        }
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (status, slots, text)
    }

    @Test func aMissingLibraryIsReportedWithTheLoadersReason() {
        let result = Self.open(names: ["libwebimage-absent.so.9", "libwebimage-absent.so"], symbols: ["f"])
        #expect(result.status == -1)
        #expect(result.message.hasPrefix("cannot load libwebimage-absent.so.9: "), "\(result.message)")
        #expect(result.message.contains("No such file"), "\(result.message)")
    }

    #if os(Linux)
        @Test func theFirstLoadableNameIsUsedAndEveryFunctionResolved() {
            let result = Self.open(names: ["libwebimage-absent.so", "libz.so.1"], symbols: ["zlibVersion", "crc32"])
            #expect(result.status == 0, "\(result.message)")
            #expect(result.slots.allSatisfy { $0 != nil })
            typealias Version = @convention(c) () -> UnsafePointer<CChar>?
            let version = unsafeBitCast(result.slots[0], to: Version.self)
            #expect(version().map { String(cString: $0) }?.first == "1")
        }

        @Test func aMissingFunctionIsReportedByName() {
            let result = Self.open(names: ["libz.so.1"], symbols: ["zlibVersion", "webimage_no_such_function"])
            #expect(result.status == -1)
            #expect(result.message == "libz.so.1 has no function webimage_no_such_function")
        }
    #endif
}
