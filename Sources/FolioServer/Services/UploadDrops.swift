import FolioLibrary
import Foundation

/// Drops of several files: the library page sends each file of a drop on its own (staged
/// here, under the drop's id), then asks for the drop to be taken in as one — in
/// `LibraryIntake.addAll`'s order, so a setlist, CSV index or dictionary dropped with its PDF
/// finds it whatever order the files came in. Staged files live in `.folio/drops`, beside the
/// spool. Every limit frees itself: a drop holds at most ``maxFiles`` files and ``maxBytes`` bytes,
/// at most ``maxDrops`` drops wait at once, and one untouched for ``lifetime`` seconds is
/// removed with its files (as is what a stopped server left).
///
/// ```swift
/// let drops = try UploadDrops(spool: spool, maxBytes: 1 << 30)
/// _ = try await drops.stage(file: spooled, name: "Koncert.4ss", drop: "3f9c0d2a7b1e4c5d")
/// let files = try await drops.take("3f9c0d2a7b1e4c5d")   // the staged paths, in the order sent
/// ```
public actor UploadDrops {
    public nonisolated let directory: String
    public nonisolated let maxFiles: Int
    public nonisolated let maxBytes: Int
    public nonisolated let maxDrops: Int
    /// Drops one device (its address) may have waiting: one device filling the server's room
    /// gets 429, not everyone 503.
    public nonisolated let maxDropsPerClient: Int
    public nonisolated let lifetime: TimeInterval

    private struct Drop {
        var files: [String] = []
        var bytes = 0
        var touched = Date()
        var client = "unknown"
    }
    private var drops: [String: Drop] = [:]

    public init(spool: UploadSpool, maxFiles: Int = 500, maxBytes: Int, maxDrops: Int = 8, maxDropsPerClient: Int = 4,
                lifetime: TimeInterval = 600) throws {
        directory = (spool.directory as NSString).deletingLastPathComponent + "/drops"
        self.maxFiles = maxFiles
        self.maxBytes = maxBytes
        self.maxDrops = maxDrops
        self.maxDropsPerClient = maxDropsPerClient
        self.lifetime = lifetime
        // A stopped server's drops can never be taken: gone with it.
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Whether `id` can name a drop: 16 to 64 letters, digits and dashes (the page makes
    /// 128 random bits).
    public static func isValidID(_ id: String) -> Bool {
        (16...64).contains(id.utf8.count) && id.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (48...57).contains($0)
            || (65...90).contains($0) || (97...122).contains($0) }
    }

    /// Moves the received file `file` (in the spool) into the drop `id` as `name`; returns its
    /// place in the drop (0 for the first). 400 for a bad id, 413 past the drop's limits, 429
    /// (tooMany) when `client` has ``maxDropsPerClient`` drops waiting, 503 (busy) when the
    /// server has ``maxDrops``; the file is left to the caller to discard then.
    public func stage(file: String, name: String, drop id: String, client: String = "unknown") throws -> Int {
        guard Self.isValidID(id) else {
            throw LibraryError(.invalidArgument, "drop must be 16 to 64 letters, digits and dashes")
        }
        sweep()
        var drop = drops[id] ?? Drop(client: client)
        if drops[id] == nil, drops.values.filter({ $0.client == client }).count >= maxDropsPerClient {
            throw LibraryError(.tooMany, "this device has \(maxDropsPerClient) drops waiting to be taken in (valid: up to "
                + "\(maxDropsPerClient)); take them in first", retryAfter: 5)
        }
        if drops[id] == nil, drops.count >= maxDrops {
            throw LibraryError(.busy, "\(maxDrops) drops are waiting to be taken in; try again shortly", retryAfter: 5)
        }
        let size = ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0
        guard drop.files.count < maxFiles else {
            throw LibraryError(.tooLarge, "a drop holds at most \(maxFiles) files")
        }
        guard size <= maxBytes - drop.bytes else {
            throw LibraryError(.tooLarge, "a drop holds at most \(maxBytes) bytes")
        }
        let index = drop.files.count
        let folder = directory + "/\(id)/\(index)"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: file, toPath: folder + "/" + name)
        } catch {
            throw LibraryError(.io, "cannot stage \(name): \(error.localizedDescription)")
        }
        drop.files.append(folder + "/" + name)
        drop.bytes += size
        drop.touched = Date()
        drops[id] = drop
        return index
    }

    /// The files staged in the drop `id`, in the order they were sent; the drop is no longer
    /// waiting (``finish(_:)`` removes its files). 404 for a drop that is not waiting.
    public func take(_ id: String) throws -> [String] {
        sweep()
        guard Self.isValidID(id), let drop = drops.removeValue(forKey: id) else {
            throw LibraryError(.notFound, "no drop \(id.prefix(64)) is waiting (each is kept \(Int(lifetime)) seconds)")
        }
        return drop.files
    }

    /// Puts a taken drop back to wait (its files are still staged), when it could not be taken
    /// in yet: the server was busy.
    public func restore(_ id: String, files: [String], client: String = "unknown") {
        guard Self.isValidID(id) else { return }
        let bytes = files.reduce(0) { total, file in
            total + (((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0)
        }
        drops[id] = Drop(files: files, bytes: bytes, touched: Date(), client: client)
    }

    /// Removes the drop's files once taken in.
    public nonisolated func finish(_ id: String) {
        guard Self.isValidID(id) else { return }
        try? FileManager.default.removeItem(atPath: directory + "/" + id)
    }

    /// Drops and files waiting now.
    public func load() -> (drops: Int, files: Int) {
        (drops.count, drops.values.reduce(0) { $0 + $1.files.count })
    }

    /// Removes drops untouched for ``lifetime`` seconds.
    private func sweep() {
        let now = Date()
        for (id, drop) in drops where now.timeIntervalSince(drop.touched) > lifetime {
            drops[id] = nil
            finish(id)
        }
    }
}
