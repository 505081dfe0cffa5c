import Testing
import WebImage

@testable import WebImageHTTP

/// The queue and the coalescing, without threads or sockets.
@Suite("Download queue state machine")
struct DownloadQueueStateMachineTests {
    typealias Machine = DownloadQueueStateMachine<String>

    @Test func callersOfOneKeyShareOneDownload() {
        var machine = Machine(maximumConcurrent: 6, order: .fifo)
        let first = machine.subscribe(token: 1, key: "a", priority: .normal)
        #expect(first == .init(download: 0, joined: false, start: [0]))
        for token in 2...1_000 {
            let joined = machine.subscribe(token: token, key: "a", priority: .normal)
            #expect(joined == .init(download: 0, joined: true, start: []))
        }
        #expect(machine.downloads.count == 1)
        #expect(machine.subscribers(of: 0).count == 1_000)
        let ended = machine.downloadEnded(0)
        #expect(ended.subscribers == Array(1...1_000))
        #expect(machine.downloads.isEmpty)
        #expect(machine.runningCount == 0)
    }

    @Test func atMostTheLimitRunAndAFreedSlotStartsTheNext() {
        var machine = Machine(maximumConcurrent: 2, order: .fifo)
        #expect(machine.subscribe(token: 1, key: "a", priority: .normal).start == [0])
        #expect(machine.subscribe(token: 2, key: "b", priority: .normal).start == [1])
        #expect(machine.subscribe(token: 3, key: "c", priority: .normal).start == [])
        #expect(machine.runningCount == 2)
        #expect(machine.queue == [2])
        #expect(machine.downloadEnded(0).start == [2])
        #expect(machine.runningCount == 2)
        #expect(machine.setMaximumConcurrent(3) == [])
        #expect(machine.subscribe(token: 4, key: "d", priority: .normal).start == [3])
    }

    /// One slot held by download 0; queued 1, 2, 3 start in the returned order as slots free.
    static func startOrder(_ machine: inout Machine) -> [Int] {
        var order: [Int] = []
        var next = machine.downloadEnded(0).start
        while let id = next.first {
            order.append(id)
            next = machine.downloadEnded(id).start
        }
        return order
    }

    @Test func fifoStartsTheOldestAndLifoTheNewest() {
        for (order, expected) in [(DownloadExecutionOrder.fifo, [1, 2, 3]), (.lifo, [3, 2, 1])] {
            var machine = Machine(maximumConcurrent: 1, order: order)
            for (token, key) in ["a", "b", "c", "d"].enumerated() {
                _ = machine.subscribe(token: token, key: key, priority: .normal)
            }
            #expect(Self.startOrder(&machine) == expected)
        }
    }

    @Test func higherPriorityStartsFirstWhateverTheOrder() {
        for order in [DownloadExecutionOrder.fifo, .lifo] {
            var machine = Machine(maximumConcurrent: 1, order: order)
            _ = machine.subscribe(token: 0, key: "a", priority: .normal)
            _ = machine.subscribe(token: 1, key: "b", priority: .low)
            _ = machine.subscribe(token: 2, key: "c", priority: .normal)
            _ = machine.subscribe(token: 3, key: "d", priority: .high)
            #expect(Self.startOrder(&machine) == [3, 2, 1])
        }
    }

    @Test func priorityChangeReordersAQueuedDownload() {
        var machine = Machine(maximumConcurrent: 1, order: .fifo)
        for (token, key) in ["a", "b", "c", "d"].enumerated() {
            _ = machine.subscribe(token: token, key: key, priority: .normal)
        }
        machine.setPriority(token: 3, .high)
        machine.setPriority(token: 1, .low)
        #expect(machine.queue == [3, 2, 1])
        #expect(Self.startOrder(&machine) == [3, 2, 1])
    }

    @Test func aDownloadTakesTheHighestPriorityOfItsCallers() {
        var machine = Machine(maximumConcurrent: 1, order: .fifo)
        _ = machine.subscribe(token: 0, key: "a", priority: .normal)
        _ = machine.subscribe(token: 1, key: "b", priority: .normal)
        _ = machine.subscribe(token: 2, key: "c", priority: .low)
        _ = machine.subscribe(token: 3, key: "c", priority: .high)
        #expect(machine.queue == [2, 1])
        _ = machine.cancel(token: 3)
        #expect(machine.queue == [1, 2])
    }

    @Test func cancellingOneCallerLeavesTheOthers() {
        var machine = Machine(maximumConcurrent: 1, order: .fifo)
        _ = machine.subscribe(token: 1, key: "a", priority: .normal)
        _ = machine.subscribe(token: 2, key: "a", priority: .normal)
        #expect(machine.cancel(token: 1) == .detach(0))
        #expect(machine.cancel(token: 1) == CancelAction.none)
        #expect(machine.subscribers(of: 0) == [2])
        #expect(machine.phase(of: 0) == .running)
    }

    typealias CancelAction = Machine.CancelAction

    @Test func lastCallerOfARunningDownloadStopsItAndTheSlotFreesWhenItEnds() {
        var machine = Machine(maximumConcurrent: 1, order: .fifo)
        _ = machine.subscribe(token: 1, key: "a", priority: .normal)
        _ = machine.subscribe(token: 2, key: "b", priority: .normal)
        #expect(machine.cancel(token: 1) == .detachAndStop(0))
        #expect(machine.phase(of: 0) == .stopping)
        #expect(machine.runningCount == 1)
        // A new caller of the stopping key gets a new download, queued behind the stop.
        let again = machine.subscribe(token: 3, key: "a", priority: .normal)
        #expect(again == .init(download: 2, joined: false, start: []))
        let ended = machine.downloadEnded(0)
        #expect(ended.subscribers.isEmpty)
        #expect(ended.start == [1])
    }

    @Test func lastCallerOfAQueuedDownloadDropsIt() {
        var machine = Machine(maximumConcurrent: 1, order: .fifo)
        _ = machine.subscribe(token: 1, key: "a", priority: .normal)
        _ = machine.subscribe(token: 2, key: "b", priority: .normal)
        #expect(machine.cancel(token: 2) == .detachAndDrop(1))
        #expect(machine.queue.isEmpty)
        #expect(machine.downloadEnded(0).start.isEmpty)
        #expect(machine.downloads.isEmpty)
    }

    @Test func aCallerJoiningAfterTheEndGetsANewDownload() {
        var machine = Machine(maximumConcurrent: 6, order: .fifo)
        _ = machine.subscribe(token: 1, key: "a", priority: .normal)
        _ = machine.downloadEnded(0)
        #expect(machine.subscribe(token: 2, key: "a", priority: .normal) == .init(download: 1, joined: false, start: [1]))
        #expect(machine.download(of: 2) == 1)
        #expect(machine.download(of: 1) == nil)
    }
}
