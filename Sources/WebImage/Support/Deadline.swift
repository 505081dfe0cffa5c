/// Runs `operation` in a child task and fails with `timeout()` when it has not finished within
/// `limit`; the operation is then cancelled and awaited, so it should answer cancellation
/// promptly (a ``JobRegistry`` subscription does: leaving it returns at once, and the shared work
/// stops only when no one else waits for it). A `limit` of 100 years or more sets no timer.
package func withDeadline<T: Sendable>(
    _ limit: Duration, timeout: @escaping @Sendable () -> any Error, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    guard limit < .seconds(100 * 365 * 86_400) else { return try await operation() }
    guard limit > .zero else { throw timeout() }
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        // The first child to end decides; the other is cancelled (and awaited by the group).
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw timeout() }
        return value
    }
}
