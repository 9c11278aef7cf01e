import Foundation

/// Pictures of pages drawn by Poppler's `pdftoppm` (installed with the tools Folio is
/// checked against; without it there are none, and the pages show without them): the
/// library's covers, and the first page a score opens on, shown at once while pdf.js is
/// still starting. Kept beside the catalog in `.folio/pages/`, one PNG per score version,
/// page and height, so a page is drawn once per change of its file; drawing a new version
/// removes the score's pictures of older ones. At most two are drawn at a time, each within
/// 10 seconds, off the server's own threads.
///
/// ```swift
/// let pictures = PageImageCache(directory: "/lib/.folio/pages")
/// let cover = await pictures.cover(for: "/lib/a.pdf", id: 3, version: "\"1843-17…\"")
/// let page = await pictures.image(for: "/lib/a.pdf", id: 3, page: 2, version: "\"1843-17…\"")
/// ```
public struct PageImageCache: Sendable {
    public let directory: String
    /// A cover's height in pixels (its width follows the page).
    public static let coverHeight = 240
    /// The height a page is drawn at when none is asked for: sharp on a laptop's or a
    /// tablet's screen, where the picture is shown until pdf.js draws the page.
    public static let pageHeight = 1200
    /// The heights a page may be drawn at.
    public static let heights = 100...2400
    /// Where pdftoppm is; nil when it is not installed.
    public let renderer: String?
    private let gate = DispatchSemaphore(value: 2)

    public init(directory: String, renderer: String? = PageImageCache.findRenderer()) {
        self.directory = directory
        self.renderer = renderer
    }

    /// pdftoppm on the usual paths.
    public static func findRenderer() -> String? {
        ["/usr/bin/pdftoppm", "/usr/local/bin/pdftoppm", "/opt/homebrew/bin/pdftoppm"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The PNG cover of `pdf` at `version` (its first page, ``coverHeight`` pixels high).
    public func cover(for pdf: String, id: Int64, version: String) async -> Data? {
        await image(for: pdf, id: id, page: 1, height: PageImageCache.coverHeight, version: version)
    }

    /// Page `page` (1-based) of `pdf` at `version` as a PNG `height` pixels high (clamped
    /// to ``heights``); nil when it cannot be drawn (no renderer, no such page, a damaged
    /// file, a timeout).
    public func image(for pdf: String, id: Int64, page: Int, height: Int = PageImageCache.pageHeight, version: String) async -> Data? {
        let height = min(max(height, PageImageCache.heights.lowerBound), PageImageCache.heights.upperBound)
        let stamp = Digest.fnv1a(version.utf8)
        let name = "\(id)-p\(page)-h\(height)-\(stamp).png"
        let path = (directory as NSString).appendingPathComponent(name)
        if let cached = FileManager.default.contents(atPath: path) { return cached }
        guard let renderer, page >= 1 else { return nil }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                gate.wait()
                defer { gate.signal() }
                continuation.resume(returning: draw(pdf, page: page, height: height, with: renderer, into: path, id: id, stamp: stamp))
            }
        }
    }

    private func draw(_ pdf: String, page: Int, height: Int, with renderer: String, into path: String, id: Int64, stamp: String) -> Data? {
        if let cached = FileManager.default.contents(atPath: path) { return cached }  // drawn while this one waited
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = path + ".part-\(UUID().uuidString)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: renderer)
        process.arguments = ["-f", String(page), "-l", String(page), "-scale-to-y", String(height), "-scale-to-x", "-1", "-png",
                             "-singlefile", pdf, base]  // pdf is a real path inside the library: it starts with "/"
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning {
            if Date() > deadline { process.terminate(); break }
            usleep(5_000)
        }
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(atPath: base + ".png") }
        guard process.terminationStatus == 0, let data = FileManager.default.contents(atPath: base + ".png") else { return nil }
        guard (try? FileManager.default.moveItem(atPath: base + ".png", toPath: path)) != nil else { return data }
        // This score's pictures of older versions go (not this version's other pages, nor drafts).
        for old in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where old.hasPrefix("\(id)-") && old.hasSuffix(".png") && !old.contains(".part-") && !old.hasSuffix("-\(stamp).png") {
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(old))
        }
        return data
    }
}
