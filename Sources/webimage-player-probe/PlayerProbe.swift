import Foundation
import WebImageCodecs
import WebImageTesting

#if canImport(Glibc)
    import Glibc

    /// glibc's `malloc_trim` (malloc.h is not part of the Glibc module): returns freed heap memory.
    @_silgen_name("malloc_trim") func mallocTrim(_ pad: Int) -> Int32
#endif

/// A child process for the player's memory test and benchmark:
///
///     webimage-player-probe SECONDS BUDGET_MB FRAME_MS [STORAGE_MB]
///
/// Warms the runtime up on a tiny animation, generates a 100-frame 500×500 GIF (each frame
/// 1,000,000 bytes decoded), decodes it, returns
/// freed heap memory to the system (`malloc_trim`), notes the anonymous resident memory, then plays the GIF
/// with `AnimatedImagePlayer` at 1× on the real clock for SECONDS with a frame pool of BUDGET_MB
/// (and a storage pool of STORAGE_MB, the default when absent). It prints one line:
/// `growth=BYTES budget=BYTES canvas=BYTES emitted=N evictions=N reused=N allocated=N shared=N storagePeak=BYTES
/// peakRSS=BYTES`, where
/// growth is the most anonymous resident memory (heap and stacks, not code pages) seen at any
/// emitted frame minus that before playing. Exits 1 when the image is not animated.
@main
struct PlayerProbe {
    static let frames = 100
    static let side = 500

    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let seconds = arguments.count > 0 ? Double(arguments[0]) ?? 4 : 4
        let budget = (arguments.count > 1 ? Int(arguments[1]) ?? 16 : 16) << 20
        let frameTime = arguments.count > 2 ? Double(arguments[2]) ?? 20 : 20
        if arguments.count > 3, let storage = Int(arguments[3]) { PixelStoragePool.shared.budget = storage << 20 }
        AnimatedFramePool.shared.budget = budget

        // The Swift concurrency runtime (its threads), the clock and malloc's small-object caches
        // warm up on a tiny animation first: what is measured below is the player's own memory.
        try await warmUp(frameDuration: frameTime / 1000)

        var image: Image? = try ImageCodersManager.standard().decode(try makeGIF(frameDuration: frameTime / 1000))
        guard let decoded = image, let player = AnimatedImagePlayer(image: decoded) else { exit(1) }
        image = nil
        #if canImport(Glibc)
            _ = mallocTrim(0)
        #endif
        let baseline = residentBytes()
        player.play()
        let start = ContinuousClock.now
        var emitted = 0
        var peak = baseline
        for await _ in player.frames {
            emitted += 1
            peak = max(peak, residentBytes())
            if ContinuousClock.now - start >= .seconds(seconds) { break }
        }
        let pool = AnimatedFramePool.shared.statistics
        let storage = PixelStoragePool.shared.statistics
        print(
            "growth=\(peak - baseline) budget=\(budget) canvas=\(side * side * 4) emitted=\(emitted)"
                + " evictions=\(pool.evictionCount) reused=\(storage.reuseCount) allocated=\(storage.allocationCount) shared=\(storage.sharedCount)"
                + " storagePeak=\(storage.peakBytesHeld) peakRSS=\(peakRSS())")
        withExtendedLifetime(player) {}
    }

    /// Plays a 4-frame 8×8 GIF for 100 frames (a few hundred bytes of pixels).
    static func warmUp(frameDuration: Double) async throws {
        let source = PatternFrames(count: 4, side: 8, duration: frameDuration)
        let gif = try ImageCodersManager.standard().encode(
            Image(pixels: try source.frame(at: 0).pixels, animation: source), as: .gif, options: .init())
        guard let player = AnimatedImagePlayer(image: try ImageCodersManager.standard().decode(gif)) else { exit(1) }
        player.play()
        var shown = 0
        for await _ in player.frames {
            shown += 1
            if shown >= 100 { break }
        }
        player.stop()
    }

    /// 100 frames of a 216-colour pattern that moves 5 px per frame, encoded by our GIF encoder.
    static func makeGIF(frameDuration: Double) throws -> Data {
        let source = PatternFrames(count: frames, side: side, duration: frameDuration)
        let animated = Image(pixels: try source.frame(at: 0).pixels, animation: source)
        return try ImageCodersManager.standard().encode(animated, as: .gif, options: .init())
    }

    /// Anonymous resident bytes now (`RssAnon` of /proc/self/status): heap and stacks, without
    /// the pages of program code and libraries that playing touches for the first time.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("RssAnon:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }

    /// Peak resident bytes of this process so far.
    static func peakRSS() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}
