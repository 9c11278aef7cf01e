import Foundation

/// Pictures of pages drawn by Poppler's `pdftoppm` (installed with the tools Folio is
/// checked against; without it there are none, and the pages show without them): the
/// library's covers, and the first page a score opens on, shown at once while pdf.js is
/// still starting. Kept beside the catalog in `.folio/pages/`, one PNG per score version,
/// page, height and whether it shows the marks (``Marks``), so a page is drawn once per change of its file; drawing a new version
/// removes the score's pictures of older ones. At most two are drawn at a time, each within
/// ``drawSeconds``, off the server's own threads, with at most ``waiting`` more queued (past
/// that a picture is 503: the page shows without it); a drawing whose client has gone is
/// stopped. The folder is kept under ``maxBytes``: past it the pictures used longest ago go.
/// Drafts a crash left (`*.part-*`) are removed when the cache is made.
///
/// ```swift
/// let pictures = PageImageCache(directory: "/lib/.folio/pages")
/// let cover = try await pictures.cover(for: "/lib/a.pdf", id: 3, version: "\"1843-17…\"")
/// let page = try await pictures.image(for: "/lib/a.pdf", id: 3, page: 2, version: "\"1843-17…\"")
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
    /// Drawings waiting for one of the two slots (the viewer asks for one page at a time).
    public static let waiting = 4
    /// The longest one drawing may take: so that the queue, and a shutdown waiting for it, end within seconds.
    public static let drawSeconds = 5.0
    /// The most the folder may hold: some 1,500 pages at the default height.
    public static let maxBytes = 256 << 20
    private let queue = WorkQueue(slots: 2, waiting: PageImageCache.waiting, seconds: PageImageCache.drawSeconds)

    public init(directory: String, renderer: String? = PageImageCache.findRenderer()) {
        self.directory = directory
        self.renderer = renderer
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.contains(".part-") {
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
        }
    }

    /// pdftoppm on the usual paths.
    public static func findRenderer() -> String? {
        ["/usr/bin/pdftoppm", "/usr/local/bin/pdftoppm", "/opt/homebrew/bin/pdftoppm"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether a picture shows the page's annotations.
    public enum Marks: String, Sendable {
        /// Every annotation, in every layer (what Poppler draws).
        case shown
        /// None (`pdftoppm -hide-annotations`): the pages as engraved, for members who may not
        /// see every layer.
        case hidden
    }

    /// The PNG cover of `pdf` at `version` (its first page, ``coverHeight`` pixels high).
    public func cover(for pdf: String, id: Int64, version: String, marks: Marks = .shown,
                      wanted: @escaping @Sendable () -> Bool = { true }) async throws -> Data? {
        try await image(for: pdf, id: id, page: 1, height: PageImageCache.coverHeight, version: version, marks: marks, wanted: wanted)
    }

    /// Page `page` (1-based) of `pdf` at `version` as a PNG `height` pixels high (clamped
    /// to ``heights``); nil when it cannot be drawn (no renderer, no such page, a damaged
    /// file, a timeout).
    /// `wanted` is asked while the picture waits and is drawn: once false (the client has
    /// gone), the drawing stops and nil is returned. A full queue is a `LibraryError` `.busy`.
    public func image(for pdf: String, id: Int64, page: Int, height: Int = PageImageCache.pageHeight, version: String,
                      marks: Marks = .shown, wanted: @escaping @Sendable () -> Bool = { true }) async throws -> Data? {
        let height = min(max(height, PageImageCache.heights.lowerBound), PageImageCache.heights.upperBound)
        let stamp = Digest.fnv1a(version.utf8)
        let name = "\(id)-p\(page)-h\(height)\(marks == .hidden ? "-bare" : "")-\(stamp).png"
        let path = (directory as NSString).appendingPathComponent(name)
        if let cached = FileManager.default.contents(atPath: path) {
            utime(path, nil)   // used now: the last to go when the folder is trimmed
            return cached
        }
        guard let renderer, page >= 1 else { return nil }
        return try await queue.run {
            guard wanted() else { return nil }
            return draw(pdf, page: page, height: height, marks: marks, with: renderer, into: path, id: id, stamp: stamp, wanted: wanted)
        }
    }

    private func draw(_ pdf: String, page: Int, height: Int, marks: Marks, with renderer: String, into path: String, id: Int64, stamp: String,
                      wanted: () -> Bool) -> Data? {
        if let cached = FileManager.default.contents(atPath: path) { return cached }  // drawn while this one waited
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = path + ".part-\(UUID().uuidString)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: renderer)
        process.arguments = ["-f", String(page), "-l", String(page), "-scale-to-y", String(height), "-scale-to-x", "-1", "-png",
                             "-singlefile"] + (marks == .hidden ? ["-hide-annotations"] : [])
            + [pdf, base]  // pdf is a real path inside the library: it starts with "/"
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let deadline = Date().addingTimeInterval(PageImageCache.drawSeconds)
        while process.isRunning {
            if Date() > deadline || !wanted() { process.terminate(); break }
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
        trim()
        return data
    }

    /// Keeps the folder under ``maxBytes``: past it, the pictures used longest ago go until
    /// it holds three quarters of that.
    func trim(maxBytes: Int = PageImageCache.maxBytes) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var files: [(path: String, size: Int, used: Date)] = []
        var total = 0
        for name in names where name.hasSuffix(".png") && !name.contains(".part-") {
            let path = (directory as NSString).appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let size = attributes[.size] as? Int, let used = attributes[.modificationDate] as? Date else { continue }
            files.append((path, size, used))
            total += size
        }
        guard total > maxBytes else { return }
        for file in files.sorted(by: { $0.used < $1.used }) {
            guard total > maxBytes / 4 * 3 else { break }
            if (try? FileManager.default.removeItem(atPath: file.path)) != nil { total -= file.size }
        }
    }
}
