import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

#if canImport(Glibc)
import Glibc
#endif

@Suite("webimage show", .timeLimit(.minutes(2)))
struct ShowCommandTests {
    /// A 4×4 PNG: two red rows over two blue rows.
    static func redOverBlue() throws -> Data {
        var pixels = PixelBuffer(width: 4, height: 4, alphaMode: .straight, fill: RGBA8(r: 255, g: 0, b: 0))
        for y in 2..<4 { for x in 0..<4 { pixels[x, y] = RGBA8(r: 0, g: 0, b: 255) } }
        return try ImageCodersManager.standard().encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions())
    }

    @Test func outputThatIsNotATerminalIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            try Self.redOverBlue().write(to: directory.appendingPathComponent("a.png"))
            let run = try await CLI.run(["show", "a.png", "--cache-dir", "cache"], in: directory)
            #expect(run.status == 1)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("standard output is not a terminal"))
            #expect(run.stderr.contains("--protocol"))
        }
    }

    @Test func forcedBlocksWriteTheHalfBlocksOfEachImage() async throws {
        try await withTemporaryDirectory { directory in
            try Self.redOverBlue().write(to: directory.appendingPathComponent("a.png"))
            let run = try await CLI.run(["show", "--protocol", "blocks", "a.png", "--cache-dir", "cache"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let esc = "\u{1B}"
            #expect(run.stdout == """
                \(esc)[48;2;255;0;0m\(esc)[38;2;255;0;0m▀▀▀▀\(esc)[0m
                \(esc)[48;2;0;0;255m\(esc)[38;2;0;0;255m▀▀▀▀\(esc)[0m

                """)
        }
    }

    @Test func forcedKittyAndITerm2WriteTheirSequencesAndFailuresAreReported() async throws {
        try await withTemporaryDirectory { directory in
            try Self.redOverBlue().write(to: directory.appendingPathComponent("a.png"))
            let kitty = try await CLI.run(
                ["show", "--protocol", "kitty", "a.png", "missing.png", "--cache-dir", "cache"], in: directory)
            #expect(kitty.status == 1)
            #expect(kitty.stdout.hasPrefix("\u{1B}_Ga=T,f=100,t=d,q=2,c=1,r=1,i=1,p=1,m=0;iVBORw0KGgo"))
            #expect(kitty.stdout.hasSuffix("\u{1B}\\\n"))
            #expect(kitty.stderr.contains("missing.png"))
            let iterm = try await CLI.run(["show", "--protocol", "iterm2", "a.png", "--cache-dir", "cache"], in: directory)
            #expect(iterm.status == 0)
            #expect(iterm.stdout.hasPrefix("\u{1B}]1337;File=inline=1;size="))
            #expect(iterm.stdout.hasSuffix("\u{07}\n"))
        }
    }

    @Test func drawsInPlaceInARealTerminal() async throws {
        guard let tmux = Tmux.find() else {
            Issue.record("tmux is not installed: the pseudo-terminal run of webimage show was skipped")
            return
        }
        try await withTemporaryDirectory { directory in
            // 8×8: four red rows over four green ones → 8 columns × 4 rows of half blocks.
            var pixels = PixelBuffer(width: 8, height: 8, alphaMode: .straight, fill: RGBA8(r: 255, g: 0, b: 0))
            for y in 4..<8 { for x in 0..<8 { pixels[x, y] = RGBA8(r: 0, g: 255, b: 0) } }
            let png = try ImageCodersManager.standard().encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions())
            try png.write(to: directory.appendingPathComponent("square.png"))
            let session = Tmux(executable: tmux, directory: directory)
            defer { session.kill() }
            let tool = try CLI.executable().path
            try session.start(
                columns: 40, rows: 12,
                command: "\(tool) show square.png --cache-dir cache; printf SHOW-EXIT-%s $?; sleep 60")
            let screen = try await session.capture(until: "SHOW-EXIT-")
            let text = Tmux.plain(screen)
            #expect(text.contains("SHOW-EXIT-0"))
            // The box is 40×11; the 8×4 image is centred in it: rows 3…6, columns 16…23 (`printf` adds no
            // newline, so nothing scrolled).
            let rows = text.components(separatedBy: "\n")
            for row in 3...6 {
                #expect(rows[row] == String(repeating: " ", count: 16) + String(repeating: "▀", count: 8))
            }
            #expect(screen.contains("38;2;255;0;0") && screen.contains("48;2;255;0;0"))
            #expect(screen.contains("38;2;0;255;0") && screen.contains("48;2;0;255;0"))
            #expect(!text.contains("┌"))  // the loading box was cleared
        }
    }
}

/// A tmux server on a private socket, for running the tool in a real pseudo-terminal.
struct Tmux {
    let executable: URL
    let directory: URL
    let socket = "webimage-test-\(UUID().uuidString.prefix(8))"

    static func find() -> URL? {
        for path in ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        return nil
    }

    /// Runs a tmux client command; its output when `output` (never for commands that start the
    /// server: the server would inherit the pipe and keep it open).
    @discardableResult
    func run(_ arguments: [String], output: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = output ? pipe : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts the server with a detached `columns`×`rows` session running `command` (no single
    /// quotes in it). Through `system`: a `Process` would wait for the daemonised server, which
    /// keeps a descriptor Foundation watches open for the session's whole life.
    func start(columns: Int, rows: Int, command: String) throws {
        let line = "'\(executable.path)' -L \(socket) -f /dev/null new-session -d -x \(columns) -y \(rows) "
            + "-c '\(directory.path)' '\(command)' </dev/null >/dev/null 2>&1"
        guard system(line) == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "tmux did not start: \(line)"])
        }
    }

    /// The pane with its colours (`capture-pane -e`), once it shows `marker`.
    func capture(until marker: String) async throws -> String {
        for _ in 0..<600 {
            let screen = try run(["capture-pane", "-p", "-e", "-t", "0"])
            if screen.contains(marker) { return screen }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(marker) never appeared in the pane"])
    }

    func kill() { _ = try? run(["kill-server"], output: false) }

    /// `screen` without escape sequences, trailing spaces trimmed per line.
    static func plain(_ screen: String) -> String {
        var out = ""
        var escape = false
        for scalar in screen.unicodeScalars {
            if escape {
                if scalar.properties.isAlphabetic || scalar == "~" { escape = false }
                continue
            }
            if scalar == "\u{1B}" {
                escape = true
                continue
            }
            out.unicodeScalars.append(scalar)
        }
        return out.components(separatedBy: "\n").map { line in
            var line = Substring(line)
            while line.last == " " { line.removeLast() }
            return String(line)
        }.joined(separator: "\n")
    }
}
