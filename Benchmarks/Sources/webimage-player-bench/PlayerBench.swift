import Foundation
import WebImageCodecs
import WebImageTesting

/// `webimage-player-bench [SECONDS] [BUDGET_MB] [FRAME_MS]`: plays a generated 100-frame 500×500
/// GIF with `AnimatedImagePlayer` at 1× on the real clock and prints the CPU it used once its
/// buffer is warm (getrusage, as % of one core) and the memory it peaked at beside the pool's
/// budget plus two canvases.
///
/// Defaults: 10 s, the default pool budget, 100 ms frames. A budget smaller than the 100 MB of
/// frames (e.g. 16) makes the player decode every frame as it goes (the worst case).
@main
struct PlayerBench {
    static let frames = 100
    static let side = 500

    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let seconds = arguments.count > 0 ? Double(arguments[0]) ?? 10 : 10
        if arguments.count > 1, let megabytes = Int(arguments[1]) { AnimatedFramePool.shared.budget = megabytes << 20 }
        let frameTime = arguments.count > 2 ? Double(arguments[2]) ?? 100 : 100

        let data = try makeGIF(frameDuration: frameTime / 1000)
        let coders = ImageCodersManager.standard()
        var image: Image? = try coders.decode(data)
        let canvasBytes = side * side * 4
        let budget = AnimatedFramePool.shared.budget
        let baseline = residentBytes()
        let player = try requireAnimated(image)
        image = nil
        player.play()

        let warmUp = 1.0
        let start = ContinuousClock.now
        var warmCPU: Double?
        var warmAt = start
        var emitted = 0
        var skipped = 0
        var previous: Int?
        var peakResident = 0
        for await frame in player.frames {
            emitted += 1
            if let previous, frame.index != (previous + 1) % frames { skipped += (frame.index - previous - 1 + frames) % frames }
            previous = frame.index
            peakResident = max(peakResident, residentBytes())
            let elapsed = ContinuousClock.now - start
            if warmCPU == nil, elapsed >= .seconds(warmUp) {
                warmCPU = cpuSeconds()
                warmAt = .now
            }
            if elapsed >= .seconds(seconds + warmUp) { break }
        }
        let wall = Self.seconds(ContinuousClock.now - warmAt)
        let cpu = cpuSeconds() - (warmCPU ?? 0)
        let pool = AnimatedFramePool.shared.statistics
        print(String(format: "gif=%d frames %dx%d, %d KB; frame %.0f ms; budget %d MB", frames, side, side, data.count / 1024, frameTime, budget >> 20))
        print(String(format: "played %.1f s after a %.0f s warm-up: %d frames emitted, %d skipped", wall, warmUp, emitted, skipped))
        print(String(format: "cpu: %.2f %% of one core (%.3f s user+sys)", cpu / wall * 100, cpu))
        print(String(format: "pool: %.1f MB held, peak %.1f MB, %d evictions", Double(pool.bytesHeld) / 1e6, Double(pool.peakBytesHeld) / 1e6, pool.evictionCount))
        let growth = max(0, max(peakResident, peakRSS()) - baseline)
        print(String(format: "memory: resident grew %.1f MB over the decoded image (peak RSS %.1f MB); budget + 2 canvases = %.1f MB",
                     Double(growth) / 1e6, Double(peakRSS()) / 1e6, Double(min(budget, frames * canvasBytes) + 2 * canvasBytes) / 1e6))
        withExtendedLifetime(player) {}
    }

    static func requireAnimated(_ image: Image?) throws -> AnimatedImagePlayer {
        guard let image, let player = AnimatedImagePlayer(image: image) else { throw CocoaError(.featureUnsupported) }
        return player
    }

    /// 100 frames of a 216-colour pattern that moves 5 px per frame (exact palette, no
    /// dithering), generated one at a time while the encoder writes them.
    static func makeGIF(frameDuration: Double) throws -> Data {
        let source = PatternFrames(count: frames, side: side, duration: frameDuration)
        let first = try source.frame(at: 0).pixels
        let animated = Image(pixels: first, animation: source)
        return try ImageCodersManager.standard().encode(animated, as: .gif, options: .init())
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    #if os(Linux)
    static let selfUsage = RUSAGE_SELF.rawValue
    #else
    static let selfUsage = RUSAGE_SELF
    #endif

    /// User + system CPU seconds of this process.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(Self.selfUsage, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Peak resident bytes of this process so far.
    static func peakRSS() -> Int {
        var usage = rusage()
        getrusage(Self.selfUsage, &usage)
        return usage.ru_maxrss * 1024
    }

    /// Resident bytes now (/proc/self/statm), 0 where unavailable.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
