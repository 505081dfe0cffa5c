import Synchronization

/// Values in memory by cost (bytes), least recently used first out, within a budget; one lock,
/// O(1) per operation (a doubly linked list over an array of nodes). Holds the encoded results
/// and the originals of the service.
final class MemoryLRU<Value: Sendable>: Sendable {
    private struct Node {
        var key: String
        var value: Value?
        var cost: Int
        var previous: Int
        var next: Int
    }

    private struct State {
        var index: [String: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        var head = -1  // most recent
        var tail = -1  // least recent
        var bytes = 0

        mutating func unlink(_ slot: Int) {
            let (previous, next) = (nodes[slot].previous, nodes[slot].next)
            if previous >= 0 { nodes[previous].next = next } else { head = next }
            if next >= 0 { nodes[next].previous = previous } else { tail = previous }
        }

        mutating func pushFront(_ slot: Int) {
            nodes[slot].previous = -1
            nodes[slot].next = head
            if head >= 0 { nodes[head].previous = slot }
            head = slot
            if tail < 0 { tail = slot }
        }

        mutating func remove(_ slot: Int) {
            unlink(slot)
            bytes -= nodes[slot].cost
            index[nodes[slot].key] = nil
            nodes[slot].value = nil
            free.append(slot)
        }
    }

    let budget: Int
    private let cost: @Sendable (Value) -> Int
    private let state = Mutex(State())

    init(budget: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.budget = budget
        self.cost = cost
    }

    /// The entry for `key`, now the most recent.
    func value(forKey key: String) -> Value? {
        state.withLock { state in
            guard let slot = state.index[key] else { return nil }
            state.unlink(slot)
            state.pushFront(slot)
            return state.nodes[slot].value
        }
    }

    /// Stores `value`, evicting the least recent entries beyond the budget (a value larger than
    /// a quarter of the budget is not kept).
    func set(_ value: Value, forKey key: String) {
        let weight = self.cost(value)
        guard weight <= budget / 4 else { return }
        state.withLock { state in
            if let slot = state.index[key] { state.remove(slot) }
            let node = Node(key: key, value: value, cost: weight, previous: -1, next: -1)
            let slot: Int
            if let reused = state.free.popLast() {
                state.nodes[reused] = node
                slot = reused
            } else {
                state.nodes.append(node)
                slot = state.nodes.count - 1
            }
            state.index[key] = slot
            state.pushFront(slot)
            state.bytes += weight
            while state.bytes > budget, state.tail >= 0 { state.remove(state.tail) }
        }
    }

    /// Bytes held.
    var bytes: Int { state.withLock { $0.bytes } }
}
