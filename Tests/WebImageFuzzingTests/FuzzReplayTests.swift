import Foundation
import Testing
import WebImageFuzzing

/// Replays the fuzz corpus kept in the repository through the fuzz targets' own code path:
/// `Fuzz/Seeds/<target>/` (valid inputs: each must decode) and `Fuzz/Regressions/<target>/`
/// (every crash, OOM, timeout or contract violation the fuzzers ever found: each must now
/// finish with a typed outcome).
@Suite struct FuzzReplayTests {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(in folder: String, for target: FuzzTarget) throws -> [URL] {
        let directory = fuzzDirectory.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") && $0.pathExtension != "md" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test("every committed seed is accepted", arguments: FuzzTarget.allCases)
    func committedSeedsAreAccepted(target: FuzzTarget) throws {
        let seeds = try Self.inputs(in: "Seeds", for: target)
        #expect(!seeds.isEmpty, "no seeds for \(target.rawValue): run Fuzz/run.sh seeds")
        for url in seeds {
            let outcome = target.run(try Data(contentsOf: url))
            #expect(outcome == .accepted, "\(target.rawValue)/\(url.lastPathComponent): \(outcome)")
        }
    }

    @Test("every regression input ends in a typed outcome", arguments: FuzzTarget.allCases)
    func regressionsEndTyped(target: FuzzTarget) throws {
        for url in try Self.inputs(in: "Regressions", for: target) {
            let outcome = target.run(try Data(contentsOf: url))
            #expect(!outcome.isViolation, "\(target.rawValue)/\(url.lastPathComponent): \(outcome)")
        }
    }

    @Test("generated seeds are accepted", arguments: FuzzTarget.allCases)
    func generatedSeedsAreAccepted(target: FuzzTarget) throws {
        let seeds = try target.seeds()
        #expect(seeds.count >= 3)
        #expect(Set(seeds.map(\.name)).count == seeds.count, "seed names must be unique")
        for seed in seeds {
            #expect(target.run(seed.data) == .accepted, "\(target.rawValue)/\(seed.name)")
        }
    }
}
