import Foundation
import WebImageHTTPTesting
import WebImageKit

/// A view double: records every image set (with its key and transition) and, as its own
/// indicator, every start, progress and stop.
@MainActor
final class FakeTarget: ImageTarget, ImageIndicator {
    enum Event: Equatable {
        case set(key: ImageBinder.Key, transition: ImageTransition?)
        case start
        case progress(Double)
        case stop
    }

    let imageBinder = ImageBinder()
    let hasIndicator: Bool
    private(set) var events: [Event] = []
    /// The images set, in order (nil for a cleared slot).
    private(set) var images: [Image?] = []
    /// The image on screen per key.
    private(set) var shown: [ImageBinder.Key: Image] = [:]

    init(indicator: Bool = false) { hasIndicator = indicator }

    var imageIndicator: (any ImageIndicator)? { hasIndicator ? self : nil }

    func setImage(_ image: Image?, for key: ImageBinder.Key, transition: ImageTransition?) {
        events.append(.set(key: key, transition: transition))
        images.append(image)
        shown[key] = image
    }

    func startAnimatingIndicator() { events.append(.start) }
    func stopAnimatingIndicator() { events.append(.stop) }
    func updateIndicatorProgress(_ fraction: Double) { events.append(.progress(fraction)) }

    /// The transitions of the sets, in order.
    var transitions: [ImageTransition?] {
        events.compactMap { if case .set(_, let transition) = $0 { transition } else { nil } }
    }
}

/// Completions a test collects.
@MainActor
final class Outcomes {
    private(set) var results: [Result<ImageResponse, any Error>] = []
    private(set) var progress: [ImageLoad.Progress] = []
    func record(_ result: Result<ImageResponse, any Error>) { results.append(result) }
    func record(progress value: ImageLoad.Progress) { progress.append(value) }
    var successes: [ImageResponse] { results.compactMap { try? $0.get() } }
    var errorCodes: [WebImageError.Code?] {
        results.compactMap { if case .failure(let error) = $0 { WebImageError.Code.of(error) } else { nil } }
    }
}

/// Waits (on the main actor, letting its tasks run) until `condition` holds. The limit only guards
/// against a hang: on a loaded 2-core machine running every suite at once, the main actor can wait
/// a long time for its turn.
@MainActor
func eventually(_ condition: @MainActor () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(240)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw WebImageError(.timedOut, "condition not met in 240 s") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// ``withHarness(maximumConcurrentDownloads:tls:configure:_:)`` for main-actor test bodies.
@MainActor
func withMainActorHarness(_ body: @MainActor (ManagerHarness) async throws -> Void) async throws {
    let harness = try await ManagerHarness.start()
    do {
        try await body(harness)
    } catch {
        await harness.shutdown()
        throw error
    }
    await harness.shutdown()
}

enum BindingFixture {
    /// A 4×4 PNG of one colour.
    static func png(_ colour: RGBA8) throws -> Data {
        let pixels = PixelBuffer(width: 4, height: 4, alphaMode: .straight, fill: colour)
        return try PNGCoder().encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions())
    }

    /// The colour `/colour?n=N` answers with.
    static func colour(_ n: Int) -> RGBA8 { RGBA8(r: UInt8(n % 256), g: UInt8(n / 256), b: 77) }

    /// `/colour?n=N` answers a 4×4 PNG of ``colour(_:)``.
    static func routeColours(_ server: LoopbackHTTPServer) {
        server.route("/colour") { request in
            let n = Int(request.target.split(separator: "=").last ?? "") ?? 0
            return (try? .ok(png(colour(n)))) ?? .status(500)
        }
    }

    /// A placeholder nobody loads.
    static let placeholder = Image(pixels: PixelBuffer(width: 1, height: 1, alphaMode: .straight, fill: .white))
}

extension Image {
    /// The first pixel, straight.
    var firstPixel: RGBA8 { pixels.converted(to: .straight)[0, 0] }
}
