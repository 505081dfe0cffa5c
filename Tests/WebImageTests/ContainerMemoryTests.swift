import Foundation
import Testing

@testable import WebImage

/// The memory a process may use, read from a fake cgroup tree.
@Suite struct ContainerMemoryTests {
    static func tree(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cgroup-\(UUID().uuidString)").path
        for (path, text) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    @Test func cgroupV2TakesTheSmallestLimitAlongThePath() throws {
        let root = try Self.tree([
            "memory.max": "max\n",
            "kubepods/memory.max": "1073741824\n",
            "kubepods/pod1/memory.max": "max\n",
            "kubepods/pod1/app/memory.max": "536870912\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let app = ContainerMemory.current(root: root, membership: "0::/kubepods/pod1/app\n", physicalMemory: 64 << 30)
        #expect(app.limit == 512 << 20)
        #expect(app.source.hasPrefix("cgroup v2"), "\(app.source)")
        let pod = ContainerMemory.current(root: root, membership: "0::/kubepods/pod1\n", physicalMemory: 64 << 30)
        #expect(pod.limit == 1 << 30)
        // A host with less RAM than the group's limit.
        #expect(ContainerMemory.current(root: root, membership: "0::/kubepods\n", physicalMemory: 256 << 20).limit == 256 << 20)
    }

    @Test func cgroupV1AndNoLimitAtAll() throws {
        let root = try Self.tree([
            "memory/memory.limit_in_bytes": "9223372036854771712\n",
            "memory/docker/abc/memory.limit_in_bytes": "268435456\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let v1 = ContainerMemory.current(root: root, membership: "12:cpu,cpuacct:/docker/abc\n11:memory:/docker/abc\n", physicalMemory: 8 << 30)
        #expect(v1.limit == 256 << 20)
        #expect(v1.source.hasPrefix("cgroup v1"), "\(v1.source)")
        let unlimited = ContainerMemory.current(root: root, membership: "11:memory:/\n", physicalMemory: 8 << 30)
        #expect(unlimited == ContainerMemory(limit: 8 << 30, source: "physical memory"))
        #expect(ContainerMemory.current(root: root + "/none", membership: "", physicalMemory: 123).limit == 123)
    }
}
