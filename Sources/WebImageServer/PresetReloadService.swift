import Logging
import ServiceLifecycle
import UnixSignals
import WebImage

/// Reloads the presets file on every SIGHUP until the graceful shutdown
/// (``ImageServer/reloadPresets()``); a file that does not load is logged and the old set kept.
struct PresetReloadService: Service {
    let server: ImageServer

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                try server.reloadPresets()
            } catch {
                server.logger.error("presets not reloaded, the previous set stays in force: \((error as? WebImageError)?.message ?? "\(error)")")
            }
        }
    }
}
