import ArgumentParser
import Foundation
import Logging
import WebImageKit

/// Options every cache-using command takes: where the cache lives, its limits, and how chatty to be.
struct GlobalOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The disk cache directory (default: $XDG_CACHE_HOME/webimage/default or ~/.cache/webimage/default).",
        valueName: "DIR"))
    var cacheDir: String?

    @Option(help: ArgumentHelp("The disk cache's size budget in bytes (suffixes K, M, G allowed; default 1G).", valueName: "BYTES"))
    var maxDiskSize: ByteCountArgument?

    @Option(help: ArgumentHelp(
        "How long disk entries live: seconds, or a number with s, m, h or d (default 7d; 0 purges, -1 never expires).",
        valueName: "AGE"))
    var maxAge: AgeArgument?

    @Flag(name: .shortAndLong, help: "Log the pipeline's debug lines to standard error.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Print only failures (and JSON with --json).")
    var quiet = false

    func validate() throws {
        if verbose && quiet { throw ValidationError("--verbose and --quiet cannot be used together") }
        if let maxDiskSize, maxDiskSize.bytes > OptionLimits.maxDiskSize {
            throw ValidationError(
                "--max-disk-size \(maxDiskSize.text) is over the limit of \(OptionLimits.maxDiskSize) bytes (1 PiB)")
        }
        if let maxAge, !maxAge.seconds.isFinite || maxAge.seconds > OptionLimits.maxAge {
            throw ValidationError("--max-age \(maxAge.text) is over the limit of 36500 days")
        }
    }

    /// The disk cache configuration these options describe.
    var diskConfiguration: DiskCacheConfiguration {
        var configuration = DiskCacheConfiguration(namespace: "default")
        if let cacheDir { configuration.directory = URL(fileURLWithPath: cacheDir, isDirectory: true).standardizedFileURL }
        if let maxDiskSize { configuration.maxSize = maxDiskSize.bytes }
        if let maxAge { configuration.maxAge = maxAge.seconds }
        // One short-lived process: no background sweep timer; open-time expiry still runs.
        configuration.sweepInterval = nil
        return configuration
    }

    /// A logger to standard error: debug with `--verbose`, errors only otherwise (failures are reported by the display).
    func makeLogger(label: String) -> Logger {
        var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = verbose ? .debug : .error
        return logger
    }
}

/// A byte count with an optional K, M or G suffix (powers of 1024). A count too large for an
/// `Int` saturates, so that validation can say it is over the limit.
struct ByteCountArgument: ExpressibleByArgument {
    let text: String
    let bytes: Int

    init?(argument: String) {
        self.text = argument
        let text = argument.trimmingCharacters(in: .whitespaces).uppercased()
        let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text)
        var multiplier = 1
        if text.hasSuffix("B") { digits = digits.dropLast() }
        if let last = digits.last, let factor = multipliers[last] {
            multiplier = factor
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let (product, overflow) = (Int(digits) ?? .max).multipliedReportingOverflow(by: multiplier)
        bytes = overflow ? .max : product
    }
}

/// An age: seconds, or a number with an `s`, `m`, `h` or `d` suffix; negative means never.
struct AgeArgument: ExpressibleByArgument {
    let text: String
    let seconds: TimeInterval

    init?(argument: String) {
        self.text = argument
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var text = Substring(argument.trimmingCharacters(in: .whitespaces).lowercased())
        var unit = 1.0
        if let last = text.last, let factor = units[last] {
            unit = factor
            text = text.dropLast()
        }
        // inf and nan are not ages; a finite number whose product overflows is over the limit.
        guard let value = Double(text), value.isFinite else { return nil }
        seconds = value * unit
    }
}

/// `--timeout SECONDS` for commands that download.
struct TimeoutOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Seconds a whole download may take, redirects and body included (default 120); a connection, response or read idle for 15 s fails sooner.",
        valueName: "SECONDS"))
    var timeout: Double?

    func validate() throws {
        guard let timeout else { return }
        guard timeout.isFinite, timeout > 0 else {
            throw ValidationError("--timeout must be a finite number of seconds above 0 (got \(timeout))")
        }
        guard timeout <= OptionLimits.maxTimeout else {
            throw ValidationError("--timeout must be at most 86400 seconds, one day (got \(timeout))")
        }
        // The duration is counted in whole milliseconds: 0.0004 would mean no time at all.
        guard (timeout * 1000).rounded() >= 1 else {
            throw ValidationError("--timeout \(timeout) rounds to 0 ms; give at least 0.001 seconds")
        }
    }

    /// The timeout as a duration, when given.
    var duration: Duration? { timeout.map { .milliseconds(Int(($0 * 1000).rounded())) } }
}
