import Foundation
import Synchronization
import Testing

@testable import WebImage

/// The core's one limiter: slots, a memory budget by estimated weight, a bounded FIFO queue, and
/// bodies on the blocking executor.
@Suite(.timeLimit(.minutes(3)))
struct WorkLimiterTests {
    /// A body that blocks its thread until opened.
    final class Latch: Sendable {
        private let opened = Mutex(false)
        func open() { opened.withLock { $0 = true } }
        func wait() {
            while !opened.withLock({ $0 }) { usleep(1_000) }
        }
    }

    /// A value shared with the bodies.
    final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func update(_ body: (inout Value) -> Void) { value.withLock { body(&$0) } }
        var current: Value { value.withLock { $0 } }
    }

    /// The kernel's name of the calling thread.
    static func threadName() -> String {
        let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
        return comm?.trimmingCharacters(in: .whitespacesAndNewlines) ?? Thread.current.name ?? "?"
    }

    static func waitUntil(_ condition: () -> Bool) async {
        while !condition() { try? await Task.sleep(for: .milliseconds(2)) }
    }

    @Test func slotsABoundedQueueAndHandOverInOrder() async throws {
        let limiter = WorkLimiter(limit: 1, queueLimit: 2)
        let latch = Latch()
        let order = Shared<[Int]>([])
        let first = Task { try await limiter.run { latch.wait(); order.update { $0.append(0) } } }
        await Self.waitUntil { limiter.running == 1 }
        let second = Task { try await limiter.run { order.update { $0.append(1) } } }
        await Self.waitUntil { limiter.queued == 1 }
        let third = Task { try await limiter.run { order.update { $0.append(2) } } }
        await Self.waitUntil { limiter.queued == 2 }
        let refused = try await #require(throws: WebImageError.self) { try await limiter.run {} }
        #expect(refused.code == .overloaded)
        latch.open()
        try await first.value
        try await second.value
        try await third.value
        #expect(order.current == [0, 1, 2])
        #expect(limiter.running == 0 && limiter.queued == 0)
    }

    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let limiter = WorkLimiter(limit: 1)
        let latch = Latch()
        let holder = Task { try await limiter.run { latch.wait() } }
        await Self.waitUntil { limiter.running == 1 }
        let gaveUp = Task { try await limiter.run {} }
        await Self.waitUntil { limiter.queued == 1 }
        gaveUp.cancel()
        await #expect(throws: CancellationError.self) { try await gaveUp.value }
        #expect(limiter.queued == 0)
        latch.open()
        try await holder.value
    }

    @Test func weightsAreAdmittedWithinTheBudgetInOrder() async throws {
        let limiter = WorkLimiter(limit: 4, memoryBudget: 100)
        let latch = Latch()
        let heavy = Task { try await limiter.run(weight: 70) { latch.wait() } }
        await Self.waitUntil { limiter.weightInUse == 70 }
        // 40 does not fit beside 70: it waits, and the 10 behind it waits too (no starvation).
        let waiting = Task { try await limiter.run(weight: 40) { limiter.weightInUse } }
        await Self.waitUntil { limiter.queued == 1 }
        let light = Task { try await limiter.run(weight: 10) { 1 } }
        await Self.waitUntil { limiter.queued == 2 }
        #expect(limiter.running == 1)
        latch.open()
        try await heavy.value
        #expect(try await waiting.value <= 50)
        #expect(try await light.value == 1)
        #expect(limiter.weightInUse == 0)

        let tooLarge = try await #require(throws: WebImageError.self) { try await limiter.run(weight: 101) {} }
        #expect(tooLarge.code == .tooLarge)
        #expect(tooLarge.message.contains("over the whole memory budget"), "\(tooLarge)")
    }

    /// Blocking bodies run on the executor's own threads: the cooperative pool stays free for
    /// other tasks even when every body blocks.
    @Test func bodiesRunOnTheBlockingExecutorAndLeaveTheCooperativePoolFree() async throws {
        let executor = BlockingWorkExecutor(threads: 1)
        let limiter = WorkLimiter(limit: 8, executor: executor)
        let latch = Latch()
        let names = Shared<[String]>([])
        let blocked = (0..<8).map { _ in
            Task {
                try await limiter.run {
                    names.update { $0.append(Self.threadName() + (executor.isCurrentThread ? "" : " (not the executor's)")) }
                    latch.wait()
                }
            }
        }
        await Self.waitUntil { names.current.count == 8 }
        #expect(executor.threadCount >= 8)
        #expect(Set(names.current).count == 8, "\(names.current)")
        #expect(names.current.allSatisfy { $0.hasPrefix("wi-blocking-") }, "\(names.current)")
        // Eight blocked bodies, and a task on the global executor still runs. Were the bodies on
        // the cooperative pool, it would wait until the latch opens, never; other tests' work can
        // hold the pool's threads for seconds on a loaded CI machine, hence the generous bound.
        let clock = ContinuousClock()
        let start = clock.now
        let answered = await Task.detached { 42 }.value
        #expect(answered == 42)
        #expect(clock.now - start < .seconds(60))
        latch.open()
        for task in blocked { try await task.value }
    }
}
