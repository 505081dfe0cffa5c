import Foundation

/// The memory this process may use: its control group's limit when it runs in a container
/// (cgroup v2 `memory.max`, or v1 `memory.limit_in_bytes`, the smallest along its path), else
/// the machine's RAM.
///
/// A container with 512 MB on a 64 GB host must size its caches and admission for 512 MB.
///
/// ```swift
/// let memory = ContainerMemory.current()
/// print(memory.limit, memory.source)        // 536870912 cgroup v2 (/sys/fs/cgroup/…/memory.max)
/// ```
public struct ContainerMemory: Sendable, Equatable {
    /// The bytes available to the process.
    public var limit: Int
    /// Where ``limit`` was read: `cgroup v2 (PATH)`, `cgroup v1 (PATH)` or `physical memory`.
    public var source: String

    /// This process's limit, read once (what the caches' and pools' defaults are sized by).
    public static let process = current()

    /// Reads the limit; `root` is the cgroup mount and `membership` the text of
    /// `/proc/self/cgroup` (read when nil); tests pass a fake tree and their own RAM figure.
    public static func current(root: String = "/sys/fs/cgroup", membership: String? = nil, physicalMemory: Int? = nil) -> ContainerMemory {
        let physicalMemory = physicalMemory ?? Int(clamping: ProcessInfo.processInfo.physicalMemory)
        let membership = membership ?? (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8))
        let lines = (membership ?? "").split(separator: "\n")
        // v2: "0::/path"; v1: "N:memory:/path" (or a controller list containing memory).
        if let line = lines.first(where: { $0.hasPrefix("0::") }) {
            let path = String(line.dropFirst(3))
            if let found = smallest(root: root, path: path, file: "memory.max") {
                return ContainerMemory(limit: min(found.limit, physicalMemory), source: "cgroup v2 (\(found.path))")
            }
        }
        for line in lines {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[1].split(separator: ",").contains("memory") else { continue }
            if let found = smallest(root: root + "/memory", path: String(fields[2]), file: "memory.limit_in_bytes") {
                return ContainerMemory(limit: min(found.limit, physicalMemory), source: "cgroup v1 (\(found.path))")
            }
        }
        return ContainerMemory(limit: physicalMemory, source: "physical memory")
    }

    /// The smallest limit in `file` from the group at `path` up to the root (`max` and v1's
    /// huge "unlimited" values count as none).
    private static func smallest(root: String, path: String, file: String) -> (limit: Int, path: String)? {
        var components = path.split(separator: "/").map(String.init)
        var best: (limit: Int, path: String)?
        while true {
            let directory = ([root] + components).joined(separator: "/")
            let location = directory + "/" + file
            if let text = try? String(contentsOfFile: location, encoding: .utf8),
                let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), value > 0, value < 1 << 62
            {
                if best.map({ value < $0.limit }) ?? true { best = (value, location) }
            }
            guard !components.isEmpty else { break }
            components.removeLast()
        }
        return best
    }
}
