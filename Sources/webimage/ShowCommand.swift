import ArgumentParser
import Foundation
import WebImageKit
import WebImageTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `webimage show URL|FILE...`: draws images in the terminal through the manager and its caches.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Draw images in the terminal (kitty, iTerm2, sixel or half blocks).",
        discussion: """
            Each image loads through the memory and disk caches like fetch, in a box with a \
            progress bar; the image replaces the box when it arrives, an error box when it fails. \
            Animated images play in place until their loop count ends or Ctrl-C. The protocol is \
            detected from the environment: inside tmux or screen (TMUX, STY) half blocks; kitty \
            graphics for KITTY_WINDOW_ID, TERM=xterm-kitty or xterm-ghostty, TERM_PROGRAM=ghostty \
            or KONSOLE_VERSION; iTerm2 images for TERM_PROGRAM=iTerm.app, WezTerm or mintty, or \
            LC_TERMINAL=iTerm2; sixel for TERM=mlterm*, foot*, contour* or yaft*; otherwise half \
            blocks in 24-bit colour. When standard output is not a terminal, show refuses unless \
            --protocol is given; it then writes each image's escape codes in turn, without \
            placeholders or animation. Exit codes: 0 all drawn, 1 some failed, 2 usage error, 130 \
            interrupted (Ctrl-C).
            """)

    @Argument(help: "http(s), file:// or data: URLs, or paths of local files.")
    var sources: [String]

    @Option(name: .customLong("protocol"), help: "Force a protocol: kitty, iterm2, sixel or blocks.")
    var graphics: GraphicsArgument?

    @Option(help: ArgumentHelp("The most columns each image may cover.", valueName: "CELLS"))
    var width: Int?

    @Option(help: ArgumentHelp("The most rows each image may cover.", valueName: "CELLS"))
    var height: Int?

    @Option(help: ArgumentHelp("Lay the images out in this many columns (default 1).", valueName: "COLUMNS"))
    var grid: Int?

    @Flag(help: "Draw the first frame of animated images instead of playing them.")
    var firstFrame = false

    @Flag(help: "Neither read nor write the caches.")
    var noCache = false

    @OptionGroup var timeout: TimeoutOption

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        for (name, value) in [("--width", width), ("--height", height), ("--grid", grid)] {
            if let value, !(1...1000).contains(value) { throw ValidationError("\(name) must be 1…1000 (got \(value))") }
        }
    }

    func run() async throws {
        let isTerminal = isatty(STDOUT_FILENO) == 1
        guard isTerminal || graphics != nil else {
            printError("""
                webimage: error: standard output is not a terminal, so show draws nothing; \
                force a protocol (--protocol kitty, iterm2, sixel or blocks) to write its escape codes anyway
                """)
            throw ExitCode(1)
        }
        let chosen = graphics?.graphics ?? TerminalGraphics.detect(environment: ProcessInfo.processInfo.environment)
        let terminal = (isTerminal ? TerminalSize.of(descriptor: STDOUT_FILENO) : nil) ?? TerminalSize(columns: 80, rows: 24)
        let layout: GridLayout
        do {
            layout = try GridLayout(
                count: sources.count, columns: grid ?? 1, terminal: terminal, width: width, height: height)
        } catch {
            printError("webimage: error: \(error)")
            throw ExitCode(2)
        }
        let session = try await CommandSession(
            global: global, concurrency: 6, timeout: timeout.duration, cache: noCache ? .none : .optional)
        let show = ShowRun(
            sources: sources, requests: sources.map(request(for:)), graphics: chosen,
            cellPixels: chosen.cellPixels(terminal: terminal), layout: layout, enlarges: width != nil || height != nil,
            playsAnimations: !firstFrame, manager: session.manager, onTerminal: isTerminal)
        let interrupted = await Interrupt.run { await show.run() }
        await session.shutdown()
        let failures = await show.failures
        for (source, error) in failures { printError("webimage: error: \(source): \(failureMessage(error))") }
        if interrupted { throw ExitCode(130) }
        if !failures.isEmpty { throw ExitCode(1) }
    }

    /// The request for a URL or a local path (made absolute, as a file URL).
    func request(for source: String) -> ImageRequest {
        let url = loadableURL(source) ?? (source.contains("://") ? nil : URL(fileURLWithPath: source).standardizedFileURL)
        var request = ImageRequest(url: url)
        if firstFrame { request.options.insert(.decodeFirstFrameOnly) }
        // The process may exit right after the last image: stores must be on disk by then.
        request.options.insert(.waitStoreCache)
        if noCache {
            request.caching.queryType = .none
            request.caching.storeType = .none
            request.caching.originalQueryType = .none
            request.caching.originalStoreType = .none
        }
        return request
    }
}

/// `--protocol` values.
enum GraphicsArgument: String, ExpressibleByArgument, CaseIterable {
    case kitty, iterm2, sixel, blocks

    var graphics: TerminalGraphics {
        switch self {
        case .kitty: .kitty
        case .iterm2: .iterm2
        case .sixel: .sixel
        case .blocks: .blocks
        }
    }
}
