import Benchmark
import BenchmarkSupport
import Foundation

/// package-benchmark suite: one benchmark per codec workload, on the corpus files named by
/// `CodecWorkload.corpusFile` (skipped with a message when the corpus is absent).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(5),
        maxIterations: 50)

    for workload in CodecWorkload.allCases {
        let file = CodecWorkload.corpusDirectory.appendingPathComponent(workload.corpusFile)
        guard let input = try? workload.prepare(file: file) else {
            print("skipping \(workload.rawValue): cannot read \(file.path) (set WEBIMAGE_CORPUS)")
            continue
        }
        Benchmark("\(workload.rawValue) \(file.lastPathComponent)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try workload.run(input))
            }
        }
    }
}
