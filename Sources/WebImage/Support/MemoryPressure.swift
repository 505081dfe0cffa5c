import Foundation

/// What the kernel says of this process's memory pressure, from its control group (cgroup v2):
/// `memory.events` (how often the group hit its `high` and `max` limits, and was OOM-killed) and
/// PSI's `memory.pressure` (the share of the last 10 seconds in which some task waited for memory).
///
/// ```swift
/// let now = MemoryPressure.read()
/// if let before, now.isUnderPressure(since: before) { cache.trim(keeping: 0.5) }
/// ```
public struct MemoryPressure: Sendable, Equatable {
    /// `memory.events` `high`: times the group went over `memory.high` and was throttled.
    public var highEvents: Int
    /// `memory.events` `max`: times the group reached `memory.max` and had to reclaim.
    public var maxEvents: Int
    /// PSI `some avg10` in percent (0 when the kernel has no PSI).
    public var someAverage10: Double

    public init(highEvents: Int = 0, maxEvents: Int = 0, someAverage10: Double = 0) {
        self.highEvents = highEvents
        self.maxEvents = maxEvents
        self.someAverage10 = someAverage10
    }

    /// The PSI share (percent of 10 s with some task stalled on memory) taken as pressure.
    public static let stallThreshold = 10.0

    /// Whether the group hit a limit since `earlier`, or tasks stalled on memory for at least
    /// ``stallThreshold`` percent of the last 10 seconds.
    public func isUnderPressure(since earlier: MemoryPressure) -> Bool {
        highEvents > earlier.highEvents || maxEvents > earlier.maxEvents || someAverage10 >= Self.stallThreshold
    }

    /// Reads the group of this process (`membership` is `/proc/self/cgroup`'s text, read when nil)
    /// under `root`; nil outside a cgroup v2 hierarchy or when neither file can be read.
    public static func read(root: String = "/sys/fs/cgroup", membership: String? = nil) -> MemoryPressure? {
        let membership = membership ?? (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8))
        guard let line = (membership ?? "").split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else { return nil }
        let directory = ([root] + line.dropFirst(3).split(separator: "/").map(String.init)).joined(separator: "/")
        let events = try? String(contentsOfFile: directory + "/memory.events", encoding: .utf8)
        let pressure = try? String(contentsOfFile: directory + "/memory.pressure", encoding: .utf8)
        guard events != nil || pressure != nil else { return nil }
        var reading = MemoryPressure()
        for line in (events ?? "").split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let value = Int(fields[1]) else { continue }
            if fields[0] == "high" { reading.highEvents = value }
            if fields[0] == "max" { reading.maxEvents = value }
        }
        // "some avg10=1.23 avg60=… avg300=… total=…"
        if let some = (pressure ?? "").split(separator: "\n").first(where: { $0.hasPrefix("some ") }),
            let field = some.split(separator: " ").first(where: { $0.hasPrefix("avg10=") }),
            let value = Double(field.dropFirst(6))
        {
            reading.someAverage10 = value
        }
        return reading
    }
}
