import Foundation
public import WebImage
import Synchronization

/// Stops asking a failing dependency for a while: closed (requests pass; consecutive failures
/// counted) → open after ``Configuration/failureThreshold`` failures (requests refused at once
/// for ``Configuration/openDuration``) → half-open (one probe passes; its success closes the
/// breaker, its failure opens it again).
///
/// The clock is injected (``CacheClock``; `ManualCacheClock` in tests), and every state change is
/// reported to ``onStateChange``.
///
/// ```swift
/// let breaker = CircuitBreaker(configuration: .init(failureThreshold: 3, openDuration: .seconds(10)))
/// guard breaker.allowsRequest() else { return nil }            // open: skip Redis
/// do { let v = try await work(); breaker.recordSuccess(); return v }
/// catch { breaker.recordFailure(); throw error }
/// ```
public final class CircuitBreaker: Sendable {
    /// When the breaker opens and for how long.
    public struct Configuration: Sendable, Hashable {
        /// Consecutive failures that open the breaker (default 3).
        public var failureThreshold: Int
        /// How long the breaker stays open before letting a probe through (default 5 s).
        public var openDuration: Duration

        /// A configuration; both values are clamped to at least 1 failure and 0 s.
        public init(failureThreshold: Int = 3, openDuration: Duration = .seconds(5)) {
            self.failureThreshold = max(1, failureThreshold)
            self.openDuration = max(.zero, openDuration)
        }
    }

    /// Where the breaker stands.
    public enum State: String, Sendable, Hashable {
        /// Requests pass.
        case closed
        /// Requests are refused until the open period ends.
        case open
        /// The open period ended; one probe request is let through.
        case halfOpen
    }

    /// The thresholds.
    public let configuration: Configuration
    private let clock: any CacheClock
    private let machine: Mutex<Machine>
    private let onStateChange: @Sendable (State, State) -> Void

    /// A closed breaker; `onStateChange(old, new)` runs (outside the lock) on every transition.
    public init(
        configuration: Configuration = Configuration(), clock: any CacheClock = SystemCacheClock(),
        onStateChange: @escaping @Sendable (State, State) -> Void = { _, _ in }
    ) {
        self.configuration = configuration
        self.clock = clock
        self.onStateChange = onStateChange
        self.machine = Mutex(Machine())
    }

    /// The current state (an open breaker whose period has ended reads as half-open).
    public var state: State {
        let now = clock.now()
        return machine.withLock { machine in
            if case .open(let until) = machine.phase, now >= until { return .halfOpen }
            return machine.phase.state
        }
    }

    /// Whether a request may go ahead now. In the half-open state only the first caller is let
    /// through (the probe) until it reports back.
    public func allowsRequest() -> Bool {
        let now = clock.now()
        let (allowed, change) = machine.withLock { machine -> (Bool, (State, State)?) in
            switch machine.phase {
            case .closed:
                return (true, nil)
            case .open(let until):
                guard now >= until else { return (false, nil) }
                machine.phase = .halfOpen(probing: true)
                return (true, (.open, .halfOpen))
            case .halfOpen(let probing):
                if probing { return (false, nil) }
                machine.phase = .halfOpen(probing: true)
                return (true, nil)
            }
        }
        if let change { onStateChange(change.0, change.1) }
        return allowed
    }

    /// Reports a request that succeeded: closes a half-open breaker, resets the failure count.
    public func recordSuccess() {
        let old = machine.withLock { machine -> State? in
            machine.failures = 0
            guard case .closed = machine.phase else {
                let old = machine.phase.state
                machine.phase = .closed
                return old
            }
            return nil
        }
        if let old { onStateChange(old, .closed) }
    }

    /// Reports a request that failed because the dependency is unavailable: opens the breaker at
    /// the threshold, or at once when half-open.
    public func recordFailure() {
        let now = clock.now()
        let until = now.addingTimeInterval(Double(configuration.openDuration.components.seconds)
            + Double(configuration.openDuration.components.attoseconds) / 1e18)
        let old = machine.withLock { machine -> State? in
            machine.failures += 1
            switch machine.phase {
            case .closed where machine.failures >= configuration.failureThreshold, .halfOpen:
                let old = machine.phase.state
                machine.phase = .open(until: until)
                return old
            case .closed, .open:
                return nil
            }
        }
        if let old { onStateChange(old, .open) }
    }

    private struct Machine {
        var phase = Phase.closed
        var failures = 0
    }

    private enum Phase {
        case closed
        case open(until: Date)
        case halfOpen(probing: Bool)

        var state: State {
            switch self {
            case .closed: .closed
            case .open: .open
            case .halfOpen: .halfOpen
            }
        }
    }
}
