import Foundation
import Testing
import WebImage
import WebImageDiskCache
import WebImageTesting

@Suite("DiskCache processes")
struct CrashAndSharingTests {
    @Test func sigkillWhileWritingNeverLeavesACorruptEntry() async throws {
        var corruptReads = 0
        for repetition in 0..<20 {
            let root = TemporaryDirectory()
            let directory = root.child("cache")
            // Kill points spread over the run; half the runs use the default fsync, half do not
            // (a process crash cannot expose a partial file either way; fsync is for power loss).
            let killAfter = 20 + (repetition * 397) % 760
            let arguments = [directory.path, "0", "1000"] + (repetition % 2 == 0 ? [] : ["--no-fsync"])
            let ending = try await ChildProcess.onThread {
                let child = try ChildProcess(arguments)
                let reached = child.waitForLine("stored \(killAfter)")
                child.kill()
                return (reached, child.wait())
            }
            #expect(ending.0, "repetition \(repetition): the child stopped before entry \(killAfter)")
            #expect(ending.1.reason == .uncaughtSignal && ending.1.status == SIGKILL)

            let cache = try DiskCache(configuration: .testing(directory))
            await cache.waitUntilOpened()
            var present: [Int] = []
            for index in 0..<1000 {
                let key = "entry-\(index)"
                guard let data = try await cache.data(forKey: key) else { continue }
                present.append(index)
                if data != KeyDerivedContent.data(forKey: key) { corruptReads += 1 }
            }
            // Every write the child reported done survived; nothing was written out of order.
            #expect(Array(present.prefix(killAfter + 1)) == Array(0...killAfter), "repetition \(repetition)")
            #expect(present == Array(0..<present.count))
            let files = dataFiles(in: directory)
            let (count, bytes) = (try await cache.count(), try await cache.totalBytes())
            #expect(files.count == count && files.bytes == bytes, "repetition \(repetition): index and files differ")
        }
        #expect(corruptReads == 0)
    }

    @Test func twoProcessesShareOneDirectory() async throws {
        let root = TemporaryDirectory()
        // Round 1: both write the same 300 keys (in opposite orders) under a budget that forces
        // eviction from both sides, each checking its reads.
        let budget = 400_000
        let tight = root.child("tight")
        let statuses = try await runTogether([
            [tight.path, "0", "300", "--max-size", "\(budget)", "--wait-for-go", "--verify-reads"],
            [tight.path, "0", "300", "--reverse", "--max-size", "\(budget)", "--wait-for-go", "--verify-reads"],
        ])
        #expect(statuses == [0, 0])  // 3 would mean a corrupt read
        let cache = try DiskCache(configuration: .testing(tight, maxSize: budget))
        await cache.waitUntilOpened()
        let bytes = try await cache.totalBytes()
        let count = try await cache.count()
        #expect(bytes <= budget && count > 0)
        let files = dataFiles(in: tight)
        #expect(files.count == count && files.bytes == bytes)
        for index in 0..<300 {
            let key = "entry-\(index)"
            if let data = try await cache.data(forKey: key) { #expect(data == KeyDerivedContent.data(forKey: key)) }
        }

        // Round 2: overlapping ranges, no budget: every key ends up present exactly once.
        let roomy = root.child("roomy")
        let roomyStatuses = try await runTogether([
            [roomy.path, "0", "200", "--wait-for-go", "--verify-reads"],
            [roomy.path, "100", "300", "--reverse", "--wait-for-go", "--verify-reads"],
        ])
        #expect(roomyStatuses == [0, 0])
        let shared = try DiskCache(configuration: .testing(roomy))
        #expect(try await shared.count() == 300)
        for index in 0..<300 {
            let key = "entry-\(index)"
            #expect(try await shared.data(forKey: key) == KeyDerivedContent.data(forKey: key))
        }
    }

    @Test func processesOpeningANewDirectoryAtOnceAllSucceed() async throws {
        // Without the open lock, two of three children racing to create the index failed about
        // half the time ("database is locked" switching to WAL, or "table entry already exists").
        let root = TemporaryDirectory()
        for round in 0..<5 {
            let directory = root.child("fresh-\(round)")
            let statuses = try await ChildProcess.onThread {
                let children = try (0..<4).map { try ChildProcess([directory.path, "\($0 * 5)", "\($0 * 5 + 10)"]) }
                return children.map { child in
                    let status = child.wait().status
                    if status != 0 { print("webimage-cache-stress exited with \(status): \(child.lastLine)") }
                    return status
                }
            }
            #expect(statuses == [0, 0, 0, 0], "round \(round)")
            let cache = try DiskCache(configuration: .testing(directory))
            #expect(try await cache.count() == 25)
        }
    }

    /// Starts one child per argument list, lets them go at once, and returns their exit statuses.
    private func runTogether(_ argumentLists: [[String]]) async throws -> [Int32] {
        try await ChildProcess.onThread {
            let children = try argumentLists.map { try ChildProcess($0) }
            for child in children { _ = child.waitForLine("ready") }
            for child in children { child.send("go") }
            return children.map { child in
                let status = child.wait().status
                if status != 0 { print("webimage-cache-stress exited with \(status): \(child.lastLine)") }
                return status
            }
        }
    }
}
