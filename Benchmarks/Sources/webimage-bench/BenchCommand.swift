import BenchmarkSupport
import Foundation
import WebImageCodecs

/// `webimage-bench WORKLOAD [FILE] [ITERATIONS]`: times one codec workload in-process and prints
/// `workload file median_ms min_ms`, the line compare.sh reads.
/// `webimage-bench prepare WORKLOAD IN OUT`: writes the JPEG XL or TIFF file a decode workload reads.
/// `webimage-bench make-jpeg WIDTHxHEIGHT OUT`: writes a generated photo-like JPEG (for the 24 MP
/// thumbnail memory check).
/// `webimage-bench animated-frames [SECONDS]`: decodes every frame of the corpus's valid animated
/// GIFs and WebPs, round after round for SECONDS (default 3), and prints frames per second.
/// `webimage-bench kernel-paths`: the pixel kernel paths this CPU runs (`WEBIMAGE_SIMD` values).
/// With `BENCH_CLOCK=cpu` a workload is timed in process CPU time instead of wall time (steadier
/// on a loaded machine; the workloads are single-threaded unless they say otherwise).
@main
struct BenchCommand {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first else {
            print("usage: webimage-bench (\(CodecWorkload.allCases.map(\.rawValue).joined(separator: "|"))) [FILE] [ITERATIONS]")
            print("       webimage-bench make-jpeg WIDTHxHEIGHT OUT")
            print("       webimage-bench animated-frames [SECONDS]")
            exit(2)
        }
        arguments.removeFirst()
        if name == "prepare", arguments.count == 3, let workload = CodecWorkload(rawValue: arguments[0]) {
            // `webimage-bench prepare WORKLOAD IN OUT`: the file a decode workload reads, for the anchors.
            try workload.encodedInput(Data(contentsOf: URL(fileURLWithPath: arguments[1])))
                .write(to: URL(fileURLWithPath: arguments[2]))
            return
        }
        if name == "make-jpeg" {
            try makeJPEG(size: arguments[0], output: arguments[1])
            return
        }
        if name == "kernel-paths" {
            print(PixelKernels.available.map(\.rawValue).joined(separator: " "))
            return
        }
        if name == "animated-frames" {
            try animatedFrames(seconds: arguments.first.flatMap(Double.init) ?? 3)
            return
        }
        guard let workload = CodecWorkload(rawValue: name) else {
            print("unknown workload \(name)")
            exit(2)
        }
        let file = arguments.first.map { URL(fileURLWithPath: $0) }
            ?? CodecWorkload.corpusDirectory.appendingPathComponent(workload.corpusFile)
        let iterations = arguments.count > 1 ? Int(arguments[1]) ?? 10 : 10
        let input = try workload.prepare(file: file)
        try workload.run(input)  // warm-up
        var samples: [Double] = []
        let cpuClock = ProcessInfo.processInfo.environment["BENCH_CLOCK"] == "cpu"
        for _ in 0..<iterations {
            if cpuClock {
                let start = processCPUMilliseconds()
                try workload.run(input)
                samples.append(processCPUMilliseconds() - start)
                continue
            }
            let start = ContinuousClock.now
            try workload.run(input)
            let elapsed = ContinuousClock.now - start
            samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        samples.sort()
        print(String(format: "%@ %@ median_ms=%.2f min_ms=%.2f", workload.rawValue, file.lastPathComponent, samples[samples.count / 2], samples[0]))
    }

    /// CPU time used by this process so far, in milliseconds.
    static func processCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    /// Every frame of the corpus's animated GIFs and WebPs, on this thread, for `seconds`.
    static func animatedFrames(seconds: Double) throws {
        let workload = try AnimatedFramesWorkload(corpus: CodecWorkload.corpusDirectory)
        let perRound = try workload.run()  // warm-up
        var frames = 0
        var rounds = 0
        let start = ContinuousClock.now
        let cpuStart = processCPUSeconds()
        var elapsed = Duration.zero
        while elapsed < .seconds(seconds) || rounds == 0 {
            frames += try workload.run()
            rounds += 1
            elapsed = ContinuousClock.now - start
        }
        let cpu = processCPUSeconds() - cpuStart
        let total = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // Frames per CPU second as well: on a shared machine the wall clock counts time spent waiting.
        print(
            String(
                format: "animated-frames files=%d frames_per_round=%d rounds=%d seconds=%.2f frames_per_s=%.0f"
                    + " cpu_frames_per_s=%.0f",
                workload.files.count, perRound, rounds, total, Double(frames) / total, Double(frames) / cpu))
    }

    /// The CPU time this process has used, in seconds (user and system).
    static func processCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// A smooth photo-like test image (gradients plus texture), encoded at quality 90.
    static func makeJPEG(size: String, output: String) throws {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        let (width, height) = (parts[0], parts[1])
        let pixels = PixelBuffer(width: width, height: height, alphaMode: .premultiplied) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let texture = (x * 7 + y * 13) % 32
                    out[i] = UInt8((x * 255 / width + texture) % 256)
                    out[i + 1] = UInt8((y * 255 / height + texture / 2) % 256)
                    out[i + 2] = UInt8(((x + y) * 255 / (width + height)) % 256)
                    out[i + 3] = 255
                }
            }
        }
        let data = try ImageCodersManager.standard().encode(Image(pixels: pixels), as: .jpeg, options: .init(quality: 0.9))
        try data.write(to: URL(fileURLWithPath: output))
    }
}
