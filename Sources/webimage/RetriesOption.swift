import ArgumentParser

/// `--retries N`: how many times a failed download is tried again (transient failures only).
struct RetriesOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Times a failed download is tried again: 5xx, 429, timeouts and lost connections only (never a 404), with exponential backoff and the server's Retry-After, within --timeout (default 0).",
        valueName: "N"))
    var retries = 0

    func validate() throws {
        guard (0...OptionLimits.maxRetries).contains(retries) else {
            throw ValidationError("--retries must be between 0 and \(OptionLimits.maxRetries) (got \(retries))")
        }
    }
}
