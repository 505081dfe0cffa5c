import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to the standard streams and what the tool needs to know about a terminal.
enum Terminal {
    /// Writes `text` to standard output at once (no buffering, so it interleaves correctly with
    /// the live display on standard error).
    static func out(_ text: String) { emit(text, to: STDOUT_FILENO) }

    /// Writes `text` to standard error at once.
    static func err(_ text: String) { emit(text, to: STDERR_FILENO) }

    private static func emit(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Whether standard error is a terminal (where the live display goes).
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether standard output is a terminal (result lines are coloured only then).
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The terminal's width in columns (80 when unknown).
    static var columns: Int {
        var size = winsize()
        let status = withUnsafeMutablePointer(to: &size) { ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), $0) }
        if status == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// ANSI sequences the live display uses.
    enum Escape {
        static let hideCursor = "\u{1B}[?25l"
        static let showCursor = "\u{1B}[?25h"
        static let clearToEnd = "\u{1B}[J"
        static func up(_ lines: Int) -> String { lines > 0 ? "\r\u{1B}[\(lines)A" : "\r" }
        static func green(_ text: String) -> String { "\u{1B}[32m\(text)\u{1B}[0m" }
        static func red(_ text: String) -> String { "\u{1B}[31m\(text)\u{1B}[0m" }
    }
}
