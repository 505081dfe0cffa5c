import ArgumentParser

@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, inspect and convert images with WebImage.")
}
