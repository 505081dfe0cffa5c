import ArgumentParser
import Foundation
import WebImageKit

/// The `webimage` command: load, inspect and convert images with WebImage.
@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, inspect and convert images with WebImage.",
        discussion: """
            Exit codes: 0 when everything succeeded, 1 when some item failed (each failure is \
            printed with its error), 2 for usage errors, 130 when interrupted (Ctrl-C).
            """,
        version: HTTPImageLoaderConfiguration.webImageVersion,
        subcommands: [
            FetchCommand.self, PrefetchCommand.self, InfoCommand.self, ConvertCommand.self, CacheCommand.self, ShowCommand.self,
            ServeCommand.self,
        ])

    /// Parses and runs, mapping usage errors to exit code 2 (ArgumentParser's default is 64).
    static func main() async {
        // `webimage --version` alone answers before ArgumentParser builds the command tree, whose
        // dynamic casts over the command types cost more than the rest of a start (docs/performance.md).
        if CommandLine.arguments.dropFirst().elementsEqual(["--version"]) {
            Terminal.out(configuration.version + "\n")
            return
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
