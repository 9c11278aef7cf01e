import FolioPDF
import Foundation

/// forScore's backup and archive files (`.4sb`), as several independent projects have
/// decoded them: a 12-byte magic — `<--4SBV02-->` for a backup (metadata only),
/// `<--4SBV03-->` for an archive (also the library's files) — then records, each a
/// 16-character decimal name length (UTF-8 bytes, right-aligned, space-padded), a
/// 16-character decimal data length, the name, and that many bytes of one gzip member.
/// Record 0 is the archive's own name and its metadata (a binary property list).
///
/// Opening walks the record headers only, seeking past the data, so a many-gigabyte
/// archive costs a few reads per record; each payload is read and inflated when asked.
///
/// ```swift
/// let archive = try ForScoreArchive(path: "Archive.4sb")
/// let library = try ForScoreLibraryData(plist: try archive.payload(of: archive.records[0]))
/// ```
public final class ForScoreArchive {
    /// Which of forScore's two containers a file is: a backup (4SB without files) or an archive.
    ///
    /// ```swift
    /// let archive = try ForScoreArchive(path: "Backup.4sb")
    /// archive.kind   // .backup
    /// ```
    public enum Kind: String, Sendable {
        /// `<--4SBV02-->`: metadata, settings and setlists, no files.
        case backup
        /// `<--4SBV03-->`: the same and every file of forScore's Documents folder.
        case archive
    }

    /// One record of the container: its name and where its compressed data is.
    ///
    /// ```swift
    /// for record in archive.records where record.name.hasSuffix(".pdf") {
    ///     let pdf = try archive.payload(of: record)
    /// }
    /// ```
    public struct Record: Sendable, Equatable {
        /// The name as stored (file names may be in NFD).
        public var name: String
        /// Offset of the gzip data in the file.
        public var offset: Int
        public var length: Int

        /// For `{%DOCUMENTS_DIR%}/<name>`: the library file's name, NFC.
        public var documentName: String? { Record.strip("{%DOCUMENTS_DIR%}/", from: name) }
        /// For `{%AUX_DIR%}/<file>|<page>.png` (the page's drawing) and
        /// `{%AUX_DIR%}/<file>|<page>|<layer id>.4se` (one named layer's): the file's name
        /// (NFC), the 1-based page and the layer's id.
        public var drawingLayer: (file: String, page: Int, layer: String?)? {
            guard let rest = Record.strip("{%AUX_DIR%}/", from: name) else { return nil }
            let lowered = rest.lowercased()
            guard lowered.hasSuffix(".png") || lowered.hasSuffix(".4se") else { return nil }
            let stem = rest.dropLast(4)
            guard let bar = stem.lastIndex(of: "|") else { return nil }
            let tail = stem[stem.index(after: bar)...], head = stem[..<bar]
            if let page = Int(tail) { return page >= 1 ? (String(head), page, nil) : nil }
            guard !tail.isEmpty, let inner = head.lastIndex(of: "|"), let page = Int(head[head.index(after: inner)...]), page >= 1
            else { return nil }
            return (String(head[..<inner]), page, String(tail))
        }

        private static func strip(_ prefix: String, from name: String) -> String? {
            guard name.hasPrefix(prefix) else { return nil }
            return String(name.dropFirst(prefix.count)).precomposedStringWithCanonicalMapping
        }
    }

    public let kind: Kind
    public let records: [Record]
    public let path: String
    private let handle: FileHandle

    /// The longest record name read.
    public static let maxNameLength = 4096
    /// The most records read: a library of 10,000 scores with a drawing on every tenth page
    /// stays well below it, and the list of records stays within some 100 MiB.
    public static let maxRecords = 1_000_000
    /// The most a metadata payload may inflate to.
    public static let maxMetadataSize = 256 << 20
    /// The most one file may inflate to.
    public static let maxFileSize = 2 << 30

    public init(path: String) throws {
        self.path = path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ScoreError(.malformed, "cannot open \(path)")
        }
        self.handle = handle
        let size = Int(try handle.seekToEnd())
        try handle.seek(toOffset: 0)
        let magic = try handle.read(upToCount: 12).map(Array.init) ?? []
        switch String(decoding: magic, as: UTF8.self) {
        case "<--4SBV02-->": kind = .backup
        case "<--4SBV03-->": kind = .archive
        default:
            throw ScoreError(.malformed, "\(path) is not a forScore backup or archive (no <--4SBV02--> or <--4SBV03--> magic)")
        }
        var records: [Record] = []
        var offset = 12
        while offset < size {
            guard records.count < ForScoreArchive.maxRecords else {
                throw ScoreError(.limitExceeded, "\(path) has more than \(ForScoreArchive.maxRecords) records (valid: up to \(ForScoreArchive.maxRecords))")
            }
            guard offset + 32 <= size else {
                throw ScoreError(.malformed, "record \(records.count) at byte \(offset): the header is cut short (\(size - offset) of 32 bytes)")
            }
            try handle.seek(toOffset: UInt64(offset))
            let header = try handle.read(upToCount: 32).map(Array.init) ?? []
            guard header.count == 32,
                  let nameLength = ForScoreArchive.number(header[0..<16]),
                  let dataLength = ForScoreArchive.number(header[16..<32]) else {
                throw ScoreError(.malformed, "record \(records.count) at byte \(offset): the length fields are not right-aligned decimal numbers")
            }
            guard nameLength > 0, nameLength <= ForScoreArchive.maxNameLength else {
                throw ScoreError(.malformed, "record \(records.count) at byte \(offset): a name of \(nameLength) bytes (valid: 1 to \(ForScoreArchive.maxNameLength))")
            }
            let dataOffset = offset + 32 + nameLength
            guard dataLength >= 0, dataOffset <= size, dataLength <= size - dataOffset else {
                throw ScoreError(.malformed, "record \(records.count) at byte \(offset): its length fields say \(nameLength) + \(dataLength) bytes, but the file ends \(size - offset - 32) bytes later (truncated?)")
            }
            let nameBytes = try handle.read(upToCount: nameLength).map(Array.init) ?? []
            guard let name = String(validating: nameBytes, as: UTF8.self) else {
                throw ScoreError(.malformed, "record \(records.count) at byte \(offset): the name is not UTF-8")
            }
            records.append(Record(name: name, offset: dataOffset, length: dataLength))
            offset = dataOffset + dataLength
        }
        guard !records.isEmpty else { throw ScoreError(.malformed, "\(path) has no records") }
        self.records = records
    }

    deinit {
        try? handle.close()
    }

    /// The record's data, inflated; at most `limit` bytes.
    public func payload(of record: Record, limit: Int = ForScoreArchive.maxFileSize) throws -> [UInt8] {
        try handle.seek(toOffset: UInt64(record.offset))
        let packed = try handle.read(upToCount: record.length).map(Array.init) ?? []
        guard packed.count == record.length else {
            throw ScoreError(.malformed, "record \(record.name): \(packed.count) of \(record.length) bytes could be read")
        }
        do {
            return try Gzip.decompress(packed, limit: limit)
        } catch let error as PDFError {
            throw ScoreError(error.code == .limitExceeded ? .limitExceeded : .malformed, "record \(record.name) at byte \(record.offset): \(error.message)")
        }
    }

    /// Inflates the record's data into a new file at `path` as it is read, a piece at a time,
    /// so a file of any size costs the memory of one piece; at most `limit` bytes (past it,
    /// `.limitExceeded`, and the partial file is removed). Returns the bytes written.
    ///
    /// ```swift
    /// let size = try archive.extract(archive.records[1], to: "/tmp/Score.pdf", limit: 256 << 20)
    /// ```
    @discardableResult
    public func extract(_ record: Record, to path: String, limit: Int = ForScoreArchive.maxFileSize) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let output = FileHandle(forWritingAtPath: path) else {
            throw PDFError(.io, "cannot create \(path)")
        }
        var finished = false
        defer {
            try? output.close()
            if !finished { try? FileManager.default.removeItem(atPath: path) }
        }
        try handle.seek(toOffset: UInt64(record.offset))
        var left = record.length
        do {
            let written = try Gzip.decompress(limit: limit, read: { wanted in
                let piece = try handle.read(upToCount: min(wanted, left)).map(Array.init) ?? []
                left -= piece.count
                return piece
            }, write: { piece in try output.write(contentsOf: Data(piece)) })
            finished = true
            return written
        } catch let error as PDFError {
            throw ScoreError(error.code == .limitExceeded ? .limitExceeded : .malformed, "record \(record.name) at byte \(record.offset): \(error.message)")
        }
    }

    /// The metadata of record 0 as a flat dictionary, inflated to at most `limit` bytes.
    public func metadata(limit: Int = ForScoreArchive.maxMetadataSize) throws -> ForScoreLibraryData {
        let bytes = try payload(of: records[0], limit: limit)
        return try ForScoreLibraryData(plist: bytes, source: "record 0 (\(records[0].name))")
    }

    /// A field of 16 characters: spaces, then digits.
    private static func number(_ field: ArraySlice<UInt8>) -> Int? {
        let text = String(decoding: field, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), text.count <= 15 else { return nil }
        return Int(text)
    }

    /// Writes records in the layout above (for tests and tools that make archives).
    public static func encode(kind: Kind, records: [(name: String, data: [UInt8])]) throws -> [UInt8] {
        var out = Array((kind == .backup ? "<--4SBV02-->" : "<--4SBV03-->").utf8)
        for record in records {
            let packed = try Gzip.compress(record.data)
            let name = Array(record.name.utf8)
            out += Array(String(repeating: " ", count: 16 - String(name.count).count).utf8) + Array(String(name.count).utf8)
            out += Array(String(repeating: " ", count: 16 - String(packed.count).count).utf8) + Array(String(packed.count).utf8)
            out += name + packed
        }
        return out
    }
}
