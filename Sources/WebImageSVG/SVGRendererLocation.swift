import Foundation

/// Finds `webimage-svg-render`, the renderer process ``SVGCoder`` isolates librsvg in.
enum SVGRendererLocation {
    /// The renderer's file name.
    static let name = "webimage-svg-render"

    /// `$WEBIMAGE_SVG_RENDERER` when it names an executable, else `webimage-svg-render` beside the
    /// running executable (the `webimage` tool, a server, a test binary), else nil. Looked up once.
    static let executable: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["WEBIMAGE_SVG_RENDERER"], !path.isEmpty {
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
        var directories: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        if let main = Bundle.main.executableURL { directories.append(main.resolvingSymlinksInPath().deletingLastPathComponent()) }
        return directories.lazy.map { $0.appendingPathComponent(name).path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
}
