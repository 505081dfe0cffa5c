public import Foundation

/// Finds the package's built executables from inside a test process, for tests that run them as
/// child processes (the CLI tests, the disk cache's crash tests).
///
/// ```swift
/// let tool = try BuiltProducts.executable(named: "webimage")
/// ```
public enum BuiltProducts {
    /// The executable `name` in the build products directory that holds the running test binary.
    public static func executable(named name: String) throws -> URL {
        var directories: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        var bundle = Bundle.main.bundleURL
        for _ in 0..<4 {
            directories.append(bundle)
            bundle.deleteLastPathComponent()
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name) near \(directories.map(\.path))"])
    }
}
