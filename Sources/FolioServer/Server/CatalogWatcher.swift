import FolioLibrary
import Logging
import ServiceLifecycle

/// Looks at the library folder every few seconds and brings the catalog up to date, so
/// files added, changed or removed appear without a restart.
struct CatalogWatcher: Service {
    let catalog: LibraryCatalog
    let interval: Double
    let logger: Logger

    func run() async throws {
        let scanner = LibraryScanner(catalog: catalog)
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                let summary = try scanner.scan()
                for renamed in summary.renamed {
                    logger.notice("renamed \(renamed.from) to \(renamed.to): another file has the same name in another Unicode form")
                }
                for line in summary.skipped { logger.warning("skipped \(line)") }
                if summary.opened + summary.removed + summary.moved > 0 {
                    logger.info("catalog updated", metadata: ["added": "\(summary.added)", "updated": "\(summary.updated)",
                                                              "removed": "\(summary.removed)", "moved": "\(summary.moved)"])
                }
            } catch {
                logger.warning("rescan failed: \(error)")
            }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(Int(interval * 1000))) }
            } catch {
                return
            }
        }
    }
}
