import Foundation

/// First-page thumbnails for the library view, drawn by Poppler's `pdftoppm` (installed
/// with the tools Folio is checked against; without it there are no covers, and the list
/// shows none) and kept beside the catalog in `.folio/covers/`, one PNG per score version,
/// so a cover is drawn once per change of its file. At most two are drawn at a time, each
/// within 10 seconds, off the server's own threads.
///
/// ```swift
/// let covers = CoverCache(directory: "/lib/.folio/covers")
/// let png = try await covers.cover(for: "/lib/a.pdf", id: 3, version: "\"1843-17…\"")
/// ```
public struct CoverCache: Sendable {
    public let directory: String
    /// The cover's height in pixels (its width follows the page).
    public var height = 240
    /// Where pdftoppm is; nil when it is not installed.
    public let renderer: String?
    private let gate = DispatchSemaphore(value: 2)

    public init(directory: String, renderer: String? = CoverCache.findRenderer()) {
        self.directory = directory
        self.renderer = renderer
    }

    /// pdftoppm on the usual paths.
    public static func findRenderer() -> String? {
        ["/usr/bin/pdftoppm", "/usr/local/bin/pdftoppm", "/opt/homebrew/bin/pdftoppm"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The PNG cover of `pdf` at `version`; nil when it cannot be drawn (no renderer, a
    /// damaged file, a timeout).
    public func cover(for pdf: String, id: Int64, version: String) async -> Data? {
        let name = "\(id)-\(Digest.fnv1a(version.utf8)).png"
        let path = (directory as NSString).appendingPathComponent(name)
        if let cached = FileManager.default.contents(atPath: path) { return cached }
        guard let renderer else { return nil }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async {
                gate.wait()
                defer { gate.signal() }
                continuation.resume(returning: draw(pdf, with: renderer, into: path, id: id))
            }
        }
    }

    private func draw(_ pdf: String, with renderer: String, into path: String, id: Int64) -> Data? {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = path + ".part-\(UUID().uuidString)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: renderer)
        process.arguments = ["-f", "1", "-l", "1", "-scale-to-y", String(height), "-scale-to-x", "-1", "-png", "-singlefile",
                             pdf, base]  // pdf is a real path inside the library: it starts with "/"
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning {
            if Date() > deadline { process.terminate(); break }
            usleep(10_000)
        }
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(atPath: base + ".png") }
        guard process.terminationStatus == 0, let data = FileManager.default.contents(atPath: base + ".png") else { return nil }
        guard (try? FileManager.default.moveItem(atPath: base + ".png", toPath: path)) != nil else { return data }
        // Older versions of this score's cover go (not the one just made, nor another's draft).
        let name = (path as NSString).lastPathComponent
        for old in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where old.hasPrefix("\(id)-") && old.hasSuffix(".png") && !old.contains(".part-") && old != name {
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(old))
        }
        return data
    }
}
