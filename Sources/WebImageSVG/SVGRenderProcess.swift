#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import WebImage

/// One `webimage-svg-render` child process rendering one document (see its `main.c` for the
/// conversation), so that librsvg aborting or running away ends that process, not ours.
///
/// The child limits its own address space and CPU time; it is killed when the calling task is
/// cancelled (checked every 50 ms while waiting) and whenever this object goes away before it
/// has exited. Its death becomes a ``WebImageError`` for this one document.
final class SVGRenderProcess: SVGRendering {
    private let pid: pid_t
    /// Our end of the socket that is the child's standard input and output (non-blocking);
    /// -1 once closed.
    private var channel: Int32
    /// The read end of the child's standard error.
    private let errors: Int32
    /// The last bytes the child wrote to standard error (librsvg's panic message lands here).
    private var stderrTail: [UInt8] = []
    private var exited = false
    private(set) var intrinsicSize: (width: Double, height: Double)

    /// Starts `executable` and has it parse `document`.
    init(executable: String, cpuSeconds: Int, addressSpace: Int, document: UnsafeRawBufferPointer) throws {
        // Sockets, made close-on-exec atomically: no other spawn in this process inherits them.
        var pair: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
            throw WebImageError(.decodingFailed, "cannot start the SVG renderer: socketpair failed (errno \(errno))")
        }
        guard socketpair(AF_UNIX, type, 0, &errorPipe) == 0 else {
            close(pair[0])
            close(pair[1])
            throw WebImageError(.decodingFailed, "cannot start the SVG renderer: socketpair failed (errno \(errno))")
        }
        defer {
            close(pair[1])
            close(errorPipe[1])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        // A clean signal state: nothing blocked, every signal at its default.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let arguments = [
            executable, "--address-space", String(addressSpace), "--cpu-seconds", String(cpuSeconds),
        ]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // SwiftPM links the Swift runtime into every executable: its crash backtracer stays off.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, &argv, &envp)
        guard spawned == 0 else {
            close(pair[0])
            close(errorPipe[0])
            throw WebImageError(.decodingFailed, "cannot start the SVG renderer \(executable) (errno \(spawned))")
        }
        pid = child
        channel = pair[0]
        errors = errorPipe[0]
        _ = fcntl(channel, F_SETFL, fcntl(channel, F_GETFL) | O_NONBLOCK)
        _ = fcntl(errors, F_SETFL, fcntl(errors, F_GETFL) | O_NONBLOCK)

        // Every stored property is set: from here on deinit reaps the child.
        intrinsicSize = (0, 0)
        var length = UInt64(document.count)
        try withUnsafeBytes(of: &length) { try sendAll($0) }
        try sendAll(document)
        try receiveStatus(while: "reading the document")
        var source: Int32 = 0
        var width = 0.0
        var height = 0.0
        try withUnsafeMutableBytes(of: &source) { try receiveAll($0) }
        try withUnsafeMutableBytes(of: &width) { try receiveAll($0) }
        try withUnsafeMutableBytes(of: &height) { try receiveAll($0) }
        intrinsicSize = SVGDocument.usableIntrinsicSize(declared: source != 0, width: width, height: height)
    }

    deinit {
        if channel >= 0 { close(channel) }
        if !exited {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        close(errors)
    }

    func render(size: PixelSize, maxPixelCount: Int) throws -> PixelBuffer {
        try SVGDocument.checkRenderSize(size)
        return try PixelBuffer(
            width: size.width, height: size.height, alphaMode: .premultiplied, maxPixelCount: maxPixelCount
        ) { out in
            var request: (Int32, Int32, Double, Double) = (
                Int32(size.width), Int32(size.height), intrinsicSize.width, intrinsicSize.height
            )
            try withUnsafeBytes(of: &request.0) { try sendAll($0) }
            try withUnsafeBytes(of: &request.1) { try sendAll($0) }
            try withUnsafeBytes(of: &request.2) { try sendAll($0) }
            try withUnsafeBytes(of: &request.3) { try sendAll($0) }
            try receiveStatus(while: "rendering")
            try receiveAll(UnsafeMutableRawBufferPointer(out))
        }
    }

    // MARK: The conversation

    /// Reads a status word; a failure's reason becomes `badImageData`.
    private func receiveStatus(while stage: String) throws {
        var status: UInt32 = 0
        try withUnsafeMutableBytes(of: &status) { try receiveAll($0) }
        guard status != 0 else { return }
        var length: UInt32 = 0
        try withUnsafeMutableBytes(of: &length) { try receiveAll($0) }
        var reason = [UInt8](repeating: 0, count: Int(min(length, 4096)))
        try reason.withUnsafeMutableBytes { try receiveAll($0) }
        throw WebImageError.badData(String(decoding: reason, as: UTF8.self))
    }

    private func sendAll(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            try wait(for: Int16(POLLOUT))
            let sent = send(channel, bytes.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL))
            if sent > 0 {
                done += sent
            } else if sent < 0, errno != EAGAIN, errno != EINTR {
                throw childFailure()
            }
        }
    }

    private func receiveAll(_ bytes: UnsafeMutableRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            try wait(for: Int16(POLLIN))
            let got = recv(channel, bytes.baseAddress! + done, bytes.count - done, 0)
            if got > 0 {
                done += got
            } else if got == 0 || (errno != EAGAIN && errno != EINTR) {
                throw childFailure()
            }
        }
    }

    /// Waits until the channel is ready for `events`, draining standard error meanwhile and
    /// killing the child when the calling task is cancelled.
    private func wait(for events: Int16) throws {
        while true {
            var fds = [pollfd(fd: channel, events: events, revents: 0), pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, 50)
            if fds[1].revents != 0 { drainErrors() }
            if Task.isCancelled {
                throw WebImageError(.cancelled, "the SVG render was cancelled (its process was stopped)")
            }
            if ready > 0, fds[0].revents != 0 { return }
        }
    }

    private func drainErrors() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
            guard got > 0 else { return }
            stderrTail.append(contentsOf: buffer[0..<got])
            if stderrTail.count > 2048 { stderrTail.removeFirst(stderrTail.count - 2048) }
        }
    }

    /// What the child said of its death: a Rust panic's message, else its last line.
    static func reason(in stderr: String) -> String? {
        let lines = stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let panic = lines.last(where: { $0.contains("panicked at") }),
            let start = panic.range(of: "panicked at '")?.upperBound,
            let end = panic.range(of: "', ", options: .backwards, range: start..<panic.endIndex)?.lowerBound
        {
            return "librsvg panicked: \(panic[start..<end])"
        }
        return lines.last { !$0.hasPrefix("note:") && !$0.hasPrefix("stack backtrace") && !$0.hasPrefix("fatal runtime error") }
    }

    /// The child stopped talking: reaps it and says why, in its own words when it left some.
    private func childFailure() -> WebImageError {
        // Closed once only: a second close could hit a descriptor another thread has opened since.
        close(channel)
        channel = -1
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exited = true
        drainErrors()
        let said = Self.reason(in: String(decoding: stderrTail, as: UTF8.self)).map { ": \($0)" } ?? ""
        let signal = status & 0x7f
        if signal == SIGXCPU || signal == SIGKILL {
            return WebImageError(.tooLarge, "the SVG document took more CPU time than its render is allowed\(said)")
        }
        if signal != 0 {
            return WebImageError.badData("librsvg could not render this SVG document (its process died of signal \(signal))\(said)")
        }
        return WebImageError.badData("librsvg could not render this SVG document (its process exited with \(status >> 8 & 0xff))\(said)")
    }
}
