import ArgumentParser
import Foundation
import WebImageKit

/// `webimage prefetch`: warm the cache through the prefetcher.
struct PrefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Load URLs into the memory and disk caches ahead of time, at low priority.",
        discussion: """
            URLs come from the arguments, from --file (one per line; blank lines and lines starting \
            with # are ignored) and, with "-", from standard input. Entries that are not URLs are \
            skipped. Exit codes: 0 all finished, 1 some failed or were skipped, 2 usage error, \
            130 interrupted.
            """)

    @Argument(help: "URLs; \"-\" reads more, one per line, from standard input.")
    var urls: [String] = []

    @Option(name: .customLong("file"), help: ArgumentHelp("A file of URLs, one per line.", valueName: "LIST"))
    var listFile: String?

    @Option(help: "Prefetches at once, 1–256.")
    var concurrency = 3

    @OptionGroup var timeout: TimeoutOption

    @OptionGroup var retries: RetriesOption

    @Flag(help: "One JSON object per line: finished, failed or skipped, then the summary.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try OptionLimits.checkConcurrency(concurrency)
        if urls.isEmpty && listFile == nil { throw ValidationError("give URLs, --file LIST or - for standard input") }
    }

    func run() async throws {
        let entries = try readEntries()
        let session = try await CommandSession(
            global: global, concurrency: concurrency, timeout: timeout.duration, retries: retries.retries)
        let display = ProgressDisplay(mode: .choose(json: json, quiet: global.quiet), total: entries.count)
        let prefetcher = ImagePrefetcher(
            manager: session.manager, maximumConcurrentPrefetches: concurrency, options: [.waitStoreCache])
        let start = ContinuousClock.now
        let token = prefetcher.prefetch(entries.map(loadableURL))
        let interrupted = await Interrupt.run(onInterrupt: {
            display.interrupt()
            token.cancel()
        }) {
            for await result in token.results {
                let entry = entries[result.index]
                switch result.outcome {
                case .finished(let cacheType):
                    display.finished(
                        result.index,
                        ItemReport(event: "finished", url: entry, source: sourceName(cacheType: cacheType, url: result.url)))
                case .failed(let error):
                    display.finished(result.index, .failed(url: entry, error: error, elapsed: nil))
                case .skipped:
                    display.finished(result.index, .skipped(entry: entry))
                }
            }
        }
        let counts = await token.completion
        // Releasing a prefetcher cancels its prefetches: it lives until they have ended.
        withExtendedLifetime(prefetcher) {}
        await session.shutdown()
        let summary = display.end(cancelled: interrupted || counts.cancelled, elapsed: .now - start)
        if interrupted { throw ExitCode(130) }
        if summary.failed + summary.skipped > 0 { throw ExitCode(1) }
    }

    /// Arguments, then the list file, then standard input for "-".
    func readEntries() throws -> [String] {
        var entries: [String] = []
        for argument in urls {
            if argument == "-" {
                while let line = readLine() { entries += Self.entries(in: line) }
            } else {
                entries.append(argument)
            }
        }
        if let listFile {
            let data: Data
            do {
                data = try LocalFile.load(listFile)
            } catch {
                printError("webimage: error: \(failureMessage(error))")
                throw ExitCode(1)
            }
            entries += Self.entries(in: String(decoding: data, as: UTF8.self))
        }
        return entries
    }

    /// The non-blank, non-comment lines of `text`, trimmed.
    static func entries(in text: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
