import Foundation
import Testing
import WebImage
import WebImageHTTPTesting
import WebImageTesting

@testable import WebImageServer

/// Issue 24, findings 1 and 2: heavy renders never hold the threads that serve HTTP, and a
/// request that times out stops its work.
@Suite("Hostile load", .serialized, .timeLimit(.minutes(5)))
struct HostileLoadTests {
    /// About the slowest SVG the standard complexity limits accept at 1000 × 1000: 19,000
    /// translucent circles each covering most of the canvas (6 s of one core with librsvg 2.54).
    static let slowSVG: Data = {
        var body = ""
        for index in 0..<19_000 {
            body += "<circle cx=\"\(index % 97 * 10)\" cy=\"\(index % 89 * 11)\" r=\"600\" fill=\"#3366cc\" fill-opacity=\"0.3\"/>"
        }
        return Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"1000\">\(body)</svg>".utf8)
    }()

    static func waitUntil(_ what: String, within limit: Duration = .seconds(120), _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else { throw WebImageError(.timedOut, "waited \(limit) for \(what)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Before: two such renders held both cooperative threads, and `/health` took 40–92 s.
    @Test("/health and cached images answer in under 100 ms while every slot renders the slowest SVG")
    func healthWhileEverySlotIsBusy() async throws {
        try await ServiceHarness.with(configure: { $0.concurrency = 2 }) { (harness) async throws in
            harness.origin.route("/slow.svg", response: .ok(Self.slowSVG, contentType: "image/svg+xml"))
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            #expect(try await harness.image("rs:fit:64:64", "/a.jpg", ext: "png").status == 200)
            // The machine's own latency first (CI runs every suite at once on two cores), so that
            // what is measured below is what the renders add.
            let clock = ContinuousClock()
            var baseline: [Duration] = []
            for _ in 0..<5 {
                let start = clock.now
                _ = try await harness.request("/health")
                baseline.append(clock.now - start)
            }
            let renders = (0..<2).map { index in
                // The slowest input we accept: on two loaded cores a render can outlast the usual minute.
                Task { try await harness.image("rs:fit:1000:1000/q:\(50 + index)", "/slow.svg", ext: "png", timeout: .minutes(5)).status }
            }
            let limiter = harness.server.service.limiter
            try await Self.waitUntil("both slots") { limiter.running == 2 }
            var health: [Duration] = []
            var cached: [Duration] = []
            while limiter.running == 2, health.count < 20 {
                var start = clock.now
                #expect(try await harness.request("/health").status == 200)
                health.append(clock.now - start)
                start = clock.now
                #expect(try await harness.image("rs:fit:64:64", "/a.jpg", ext: "png").status == 200)
                cached.append(clock.now - start)
                try await Task.sleep(for: .milliseconds(50))
            }
            let stillBusy = limiter.running == 2
            for render in renders { #expect(try await render.value == 200) }
            #expect(health.count >= 5, "the renders ended before five probes: \(health)")
            #expect(stillBusy || health.count >= 5)
            let medianHealth = health.sorted()[health.count / 2]
            let medianCached = cached.sorted()[cached.count / 2]
            // Under 100 ms beyond the machine's own latency (on an idle machine: under 100 ms).
            let allowed = .milliseconds(100) + baseline.sorted()[baseline.count / 2]
            #expect(medianHealth < allowed, "health: \(health), baseline \(baseline)")
            #expect(medianCached < allowed, "cached: \(cached), baseline \(baseline)")
            // No bound on the slowest probe: on CI's two loaded cores one may wait seconds for a core.
        }
    }

    /// Before: after a 504 at 30 s the render kept its slot until it finished on its own.
    @Test("a request that times out stops its render and frees the slot")
    func timeoutStopsTheWork() async throws {
        try await ServiceHarness.with(configure: {
            $0.concurrency = 1
            $0.limits.requestTimeout = .seconds(1)
        }) { (harness) async throws in
            harness.origin.route("/slow.svg", response: .ok(Self.slowSVG, contentType: "image/svg+xml"))
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let limiter = harness.server.service.limiter
            let clock = ContinuousClock()
            let start = clock.now
            let answer = try await harness.image("rs:fit:1000:1000", "/slow.svg", ext: "png")
            #expect(answer.status == 504, "\(answer.text)")
            // The render (6 s of CPU) is stopped: its slot is free long before it could have ended.
            try await Self.waitUntil("the slot to be given back", within: .seconds(20)) { limiter.running == 0 }
            print("timeout test: the slot was free \(clock.now - start) after the request started")
            #expect(harness.server.service.jobs.count == 0)
            // And the next request is served: the freed slot takes it. Its own 1 s deadline can pass
            // on a starved CI core, so a 504 is tried again (a held slot would 504 every time).
            var status = 0
            for _ in 0..<5 {
                status = try await harness.image("rs:fit:64:64", "/a.jpg", ext: "png").status
                if status != 504 { break }
            }
            #expect(status == 200)
        }
    }

    /// Two requests share one render; when one gives up the other still gets it.
    @Test("a shared render goes on while another request still waits for it")
    func sharedWorkSurvivesOneWaiterLeaving() async throws {
        try await ServiceHarness.with(configure: { $0.concurrency = 1 }) { (harness) async throws in
            let gate = TestGate()
            LoadTests.gated(harness.origin, "/gated.jpg", gate: gate)
            let first = Task { try await harness.image("w:20", "/gated.jpg", ext: "png").status }
            await gate.waitForArrivals(1)
            let second = Task { try await harness.image("w:20", "/gated.jpg", ext: "png").status }
            try await Self.waitUntil("both requests on one job") { harness.server.service.jobs.count == 1 }
            try await Task.sleep(for: .milliseconds(200))
            first.cancel()
            _ = await first.result
            gate.open()
            #expect(try await second.value == 200)
        }
    }
}

/// Issue 24, finding 12: a failing source was fetched again on every request, and `HEAD` or a
/// matching `If-None-Match` rendered the image to learn its ETag.
@Suite("Failures remembered, answers without rendering", .serialized, .timeLimit(.minutes(3)))
struct UnrenderedAnswerTests {
    static func counter(_ harness: ServiceHarness, _ name: String) async throws -> Int {
        let text = try await harness.request("/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Int(Double($0.split(separator: " ").last ?? "") ?? -1) } ?? 0
    }

    @Test("a 404 source is remembered for its time to live; a 5xx never is")
    func failedSourcesAreRemembered() async throws {
        // No origin retry, so that each request is one origin request (a retry is tested in OriginRetryTests).
        try await ServiceHarness.with(configure: { $0.failedSourceTTL = .seconds(60); $0.originRetries = 0 }) { (harness) async throws in
            harness.origin.route("/gone.jpg", response: .status(404))
            harness.origin.route("/down.jpg", response: .status(503))
            for width in [10, 11, 12] {
                let answer = try await harness.image("w:\(width)", "/gone.jpg")
                #expect(answer.status == 404, "\(answer.text)")
            }
            #expect(harness.origin.requestCount("/gone.jpg") == 1)
            #expect(try await Self.counter(harness, "webimage_failed_source_hits_total") == 2)
            for width in [10, 11] { #expect(try await harness.image("w:\(width)", "/down.jpg").status == 502) }
            #expect(harness.origin.requestCount("/down.jpg") == 2)
        }
        // After the time to live the source is asked again.
        try await ServiceHarness.with(configure: { $0.failedSourceTTL = .milliseconds(300) }) { (harness) async throws in
            harness.origin.route("/gone.jpg", response: .status(404))
            #expect(try await harness.image("w:10", "/gone.jpg").status == 404)
            try await Task.sleep(for: .milliseconds(600))
            #expect(try await harness.image("w:11", "/gone.jpg").status == 404)
            #expect(harness.origin.requestCount("/gone.jpg") == 2)
        }
    }

    @Test("HEAD and a matching If-None-Match are answered from the source's validators")
    func headAndConditionalGetWithoutRendering() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg", headers: [("ETag", "\"v1\"")]))
            let first = try await harness.image("w:100", "/a.jpg", ext: "png")
            #expect(first.status == 200)
            let etag = try #require(first.header("ETag"))
            let misses = try await Self.counter(harness, "webimage_cache_misses_total")

            // Another size, never rendered: HEAD knows its ETag and type from the source.
            let head = try await harness.request(
                ServiceHarness.signed("w:50", source: harness.origin.url("/a.jpg").absoluteString, ext: "webp"), method: .HEAD)
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "image/webp")
            #expect(head.header("Content-Length") == nil, "a length of 0 would be a lie")
            let headETag = try #require(head.header("ETag"))
            #expect(headETag != etag)
            // A GET of that size makes the same ETag, and a conditional GET with it is a 304 at once.
            let conditional = try await harness.image("w:50", "/a.jpg", ext: "webp", headers: [("If-None-Match", headETag)])
            #expect(conditional.status == 304)
            #expect(try await Self.counter(harness, "webimage_cache_misses_total") == misses, "nothing was rendered")
            #expect(try await Self.counter(harness, "webimage_unrendered_answers_total") == 2)
            let full = try await harness.image("w:50", "/a.jpg", ext: "webp")
            #expect(full.status == 200)
            #expect(full.header("ETag") == headETag)
            // A stale ETag still gets the image.
            let stale = try await harness.image("w:60", "/a.jpg", ext: "webp", headers: [("If-None-Match", "\"other\"")])
            #expect(stale.status == 200)
            #expect(harness.origin.requestCount("/a.jpg") == 1)
        }
    }
}

/// Issue 24, finding 3: admission by estimated memory, not only by count.
@Suite("Memory admission", .serialized, .timeLimit(.minutes(3)))
struct MemoryAdmissionTests {
    @Test("a request whose estimated peak exceeds the whole budget is 422 with the reason, before any decode")
    func overTheWholeBudgetIs422() async throws {
        try await ServiceHarness.with(configure: { $0.memoryBudget = 64 << 20 }) { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let small = try await harness.image("rs:fit:200:200", "/a.jpg", ext: "jxl")
            #expect(small.status == 200, "\(small.text)")
            let large = try await harness.image("rs:fit:2048:2048:1", "/a.jpg", ext: "jxl")
            #expect(large.status == 422, "\(large.text)")
            #expect(large.text.contains("over the whole memory budget"), "\(large.text)")
            #expect(harness.server.service.limiter.weightInUse == 0)
        }
    }

    @Test("estimates grow with the result and the encoder: JPEG XL weighs most, then HEIC, WebP and AVIF")
    func estimates() {
        let decoded = PixelSize(width: 6000, height: 4000)
        let result = PixelSize(width: 8192, height: 5461)
        func estimate(_ format: ImageFormat, frames: Int = 1, decoded: PixelSize = decoded, alpha: Bool = false) -> Int {
            MemoryEstimate.peakBytes(allocated: decoded, decoded: decoded, result: result, format: format, frames: frames, hasAlpha: alpha)
        }
        let jxl = estimate(.jpegXL)
        let avif = estimate(.avif)
        let png = estimate(.png)
        // The measurements: 2.33 GB (JPEG XL) and 1.2 GB (AVIF) for this request; the
        // estimates cover them.
        #expect(jxl >= 2_330_000_000)
        #expect(avif >= 1_000_000_000 && avif < jxl)
        #expect(png < avif && avif < estimate(.webp) && estimate(.webp) < estimate(.heic) && estimate(.heic) < jxl)
        #expect(estimate(.gif, frames: 100) > png * 50)
        #expect(estimate(.png, alpha: true) - png == decoded.pixelCount * 4)  // the premultiplied copy
        #expect(estimate(.jpegXL, frames: .max, decoded: PixelSize(width: .max, height: 2)) == .max)
        // What a decoder allocates for a 2040-pixel box of a 16 MP source.
        let source = PixelSize(width: 4096, height: 4096)
        let box = PixelSize(width: 2040, height: 2040)
        #expect(MemoryEstimate.allocatedPixels(format: .png, displayed: source, box: box) == source)
        #expect(MemoryEstimate.allocatedPixels(format: .webp, displayed: source, box: box) == box)
        #expect(MemoryEstimate.allocatedPixels(format: .jpeg, displayed: source, box: box) == PixelSize(width: 4080, height: 4080))
        #expect(MemoryEstimate.allocatedPixels(format: .png, displayed: source, box: nil) == source)
    }
}

/// Issue 24, finding 11: an animated GIF asked for with `f:auto` by a browser that accepts AVIF
/// came back as one AVIF frame.
@Suite("Animated answers", .timeLimit(.minutes(3)))
struct AnimatedAnswerTests {
    @Test("an animated source stays animated in every negotiated format")
    func animatedSourcesStayAnimated() async throws {
        try await ServiceHarness.with { (harness) async throws in
            let source = PatternFrames(count: 4, side: 64, duration: 0.1)
            let gif = try Fixtures.coders.encode(Image(pixels: try source.frame(at: 0).pixels, animation: source), as: .gif, options: .init())
            harness.origin.route("/a.gif", response: .ok(gif, contentType: "image/gif"))
            let cases: [(accept: String, type: String)] = [
                ("image/avif,image/webp,*/*", "image/avif"),
                ("image/webp,*/*", "image/webp"),
                ("*/*", "image/gif"),
            ]
            for (accept, type) in cases {
                let answer = try await harness.image("rs:fit:32:32/f:auto", "/a.gif", headers: [("Accept", accept)])
                #expect(answer.status == 200, "\(accept): \(answer.text)")
                #expect(answer.header("Content-Type") == type, "\(accept)")
                let decoded = try Fixtures.coders.decode(answer.body)
                #expect(decoded.animation?.frameCount == 4, "\(accept): \(decoded.animation?.frameCount ?? 1) frames")
                #expect(decoded.pixelSize == PixelSize(width: 32, height: 32))
            }
            let apng = try await harness.image("rs:fit:32:32", "/a.gif", ext: "png")
            #expect(try Fixtures.coders.decode(apng.body).animation?.frameCount == 4)
        }
    }
}
