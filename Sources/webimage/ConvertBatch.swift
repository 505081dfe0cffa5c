import ArgumentParser
import Foundation
import Synchronization
import WebImageCodecs

/// `webimage convert IN... -o DIR`: every input converted in one process by `jobs` workers, each
/// result reported as it ends; a failure never stops the other files.
struct ConvertBatch: Sendable {
    var inputs: [String]
    var directory: String
    /// Every output's format; nil keeps each input's (PNG when WebImage cannot write it).
    var format: ImageFormat?
    var settings: ConvertSettings
    var jobs: Int
    var json: Bool

    /// Converts every input; throws exit code 1 when any failed, 130 when interrupted.
    func run() async throws {
        do {
            try LocalFile.makeDirectory(directory)
        } catch {
            printError("webimage: error: \(failureMessage(error))")
            throw ExitCode(1)
        }
        let files = OutputFiles(directory: directory)
        let tally = ConvertTally()
        let start = ContinuousClock.now
        let batch = self
        let interrupted = await Interrupt.run {
            await withTaskGroup(of: Void.self) { group in
                var next = 0
                func addNext() {
                    guard next < batch.inputs.count, !Task.isCancelled else { return }
                    let input = batch.inputs[next]
                    next += 1
                    group.addTask {
                        let report = await batch.convert(input, files: files)
                        tally.count(report)
                        batch.show(report)
                    }
                }
                for _ in 0..<min(batch.jobs, batch.inputs.count) { addNext() }
                for await _ in group { addNext() }
            }
        }
        let (succeeded, failed) = tally.totals
        let summary = RunSummary(
            succeeded: succeeded, failed: failed, skipped: inputs.count - succeeded - failed, total: inputs.count,
            milliseconds: wholeMilliseconds(.now - start), cancelled: interrupted)
        Terminal.out(json ? jsonLine(summary) : summary.line + "\n")
        if interrupted { throw ExitCode(130) }
        if failed > 0 { throw ExitCode(1) }
    }

    /// Converts and writes one input.
    private func convert(_ input: String, files: OutputFiles) async -> ConvertReport {
        let start = ContinuousClock.now
        let (format, settings) = (format, settings)
        do {
            let converted = try await ConvertJob.convert(input, settings: settings, presetFormat: format) { decoded in
                if let format { return format }
                return settings.coders.canEncode(decoded) ? decoded : .png
            }
            let file: String
            do {
                file = try files.write(converted.data, for: URL(fileURLWithPath: input), format: converted.format)
            } catch {
                throw ConvertJob.Failure(error: error, namesInput: false)
            }
            return ConvertReport.finished(input: input, file: file, converted, elapsed: .now - start)
        } catch let failure as ConvertJob.Failure {
            let line = "webimage: error: " + (failure.namesInput ? "\(input): " : "") + failureMessage(failure.error)
            printError(line)
            return ConvertReport.failed(input: input, error: failure.error, elapsed: .now - start)
        } catch {
            printError("webimage: error: \(input): \(failureMessage(error))")
            return ConvertReport.failed(input: input, error: error, elapsed: .now - start)
        }
    }

    private func show(_ report: ConvertReport) {
        if json {
            Terminal.out(jsonLine(report))
        } else if report.error == nil {
            Terminal.out(report.line + "\n")
        }
    }
}

/// How many files of a batch succeeded and failed so far (workers report concurrently).
final class ConvertTally: Sendable {
    private let counts = Mutex((succeeded: 0, failed: 0))

    func count(_ report: ConvertReport) {
        counts.withLock { counts in
            if report.error == nil { counts.succeeded += 1 } else { counts.failed += 1 }
        }
    }

    var totals: (succeeded: Int, failed: Int) { counts.withLock { ($0.succeeded, $0.failed) } }
}
