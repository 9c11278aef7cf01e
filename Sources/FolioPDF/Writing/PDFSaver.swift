#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Saving edited documents: incrementally (the original bytes stay an exact prefix) or
/// as a full rewrite, always through ``SafeFile`` so a failure leaves the target as it was.
///
/// ```swift
/// try PDFSaver.update(path: "score.pdf") { doc in
///     try doc.setInfo("Title", to: "Nocturne Op. 9 № 2")
/// }
/// ```
public enum PDFSaver {
    /// Appends the document's changes after its original bytes and writes the result to
    /// `path` (by default the file it was opened from, under its lock; a file that changed
    /// since the document was opened is refused). Without changes nothing is written.
    @discardableResult
    public static func saveIncrementally(_ document: PDFDocument, to path: String? = nil,
                                         options: SaveOptions = SaveOptions()) throws -> SaveReport {
        guard let target = path ?? document.source.path else {
            throw PDFError(.invalidArgument, "the document was not read from a file; give an output path")
        }
        guard target == document.source.path || document.source.isFile(at: target) else {
            return try save(document, to: target, options: options, holdingLock: false)
        }
        return try FileLock.withExclusiveLock(on: target, timeout: 10) { settled in
            guard settled == nil, document.source.isFile(at: target), fileSize(target) == document.source.count else {
                throw PDFError(.io, "\(target) changed since it was opened; nothing was written")
            }
            return try save(document, to: target, options: options, holdingLock: true)
        }
    }

    /// The document's original bytes with its changes appended as an incremental update
    /// (the original bytes alone when nothing changed), for a caller that writes a new file.
    public static func incrementalBytes(_ document: PDFDocument) throws -> [UInt8] {
        var bytes = Array(document.source.bytes)
        if document.hasChanges { bytes += try IncrementalWriter.update(for: document) }
        return bytes
    }

    /// Saves `document` to `target`; `holdingLock` says the caller holds `target`'s lock
    /// and opened the document under it.
    @discardableResult
    static func save(_ document: PDFDocument, to target: String, options: SaveOptions, holdingLock: Bool,
                     settled: SaveJournal.Outcome? = nil) throws -> SaveReport {
        var report: SaveReport
        if options.refuseDamaged, let damage = document.damage {
            throw PDFError(.damaged, "the file is damaged (\(damage)); refused, nothing was written")
        }
        if document.hasChanges {
            let update = try IncrementalWriter.update(for: document)
            report = try update.withUnsafeBytes { tail in
                try SafeFile.append(to: target, source: document.source, tail: tail, options: options,
                                    holdingLock: holdingLock)
            }
        } else if target != document.source.path && !document.source.isFile(at: target) {
            try SafeFile.write(to: target, parts: [document.source.bytes], fault: options.stageHook,
                               overridingMode: options.overridesReadOnlyMode)
            report = SaveReport(method: .copy, fallbackReason: "no changes: the original copied", appendedBytes: 0)
        } else {
            report = SaveReport(method: nil, fallbackReason: "no changes: nothing written", appendedBytes: 0)
        }
        report.settled = settled
        report.written = FileStatus(path: target)
        if report.method != nil { report.damage = document.damage }
        options.onSave?(report)
        return report
    }

    /// Writes the document as a new file: reachable objects only, renumbered.
    public static func rewrite(_ document: PDFDocument, to path: String, options: RewriteOptions = RewriteOptions(),
                               save: SaveOptions = SaveOptions()) throws {
        let bytes = try rewritten(document, options: options)
        try bytes.withUnsafeBytes {
            try SafeFile.write(to: path, parts: [$0], fault: save.stageHook, overridingMode: save.overridesReadOnlyMode)
        }
    }

    /// The bytes ``rewrite(_:to:options:save:)`` would write, made in memory (a dry run, or
    /// a file to send rather than keep).
    ///
    /// ```swift
    /// let bytes = try PDFSaver.rewritten(PDFDocument(path: "score.pdf"), options: RewriteOptions(objectStreams: true))
    /// print(bytes.count)
    /// ```
    public static func rewritten(_ document: PDFDocument, options: RewriteOptions = RewriteOptions()) throws -> [UInt8] {
        try FullWriter.rewrite(document, options: options)
    }

    /// The whole read–edit–save cycle under an advisory lock, so concurrent writers
    /// apply their edits one after the other: opens `path` (settling what an interrupted
    /// save left), lets `edit` change the document, and saves incrementally as `save`
    /// says. With an `output` other than `path`, the update goes there and `path` is only
    /// read. Returns what `edit` returns.
    @discardableResult
    public static func update<T>(path: String, output: String? = nil, password: String? = nil,
                                 options: PDFReadOptions = PDFReadOptions(), lockTimeout: Double = 10,
                                 save saveOptions: SaveOptions = SaveOptions(),
                                 edit: (PDFDocument) throws -> T) throws -> T {
        try updateReporting(path: path, output: output, password: password, options: options, lockTimeout: lockTimeout,
                            save: saveOptions, edit: edit).value
    }

    /// ``update(path:output:password:options:lockTimeout:save:edit:)`` that also returns
    /// how the file was saved, with its status right after (``SaveReport/written``).
    public static func updateReporting<T>(path: String, output: String? = nil, password: String? = nil,
                                          options: PDFReadOptions = PDFReadOptions(), lockTimeout: Double = 10,
                                          save saveOptions: SaveOptions = SaveOptions(),
                                          edit: (PDFDocument) throws -> T) throws -> (value: T, report: SaveReport) {
        if let output, output != path {
            let document = try PDFDocument(path: path, password: password, options: options)
            let result = try edit(document)
            return (result, try save(document, to: output, options: saveOptions, holdingLock: false))
        }
        // Before the lock and the edit: a read-only file is refused before anything is done.
        try SafeFile.requireWritable(path, overridingMode: saveOptions.overridesReadOnlyMode)
        return try FileLock.withExclusiveLock(on: path, timeout: lockTimeout) { settled in
            let document = try PDFDocument(path: path, password: password, options: options)
            let result = try edit(document)
            return (result, try save(document, to: path, options: saveOptions, holdingLock: true, settled: settled))
        }
    }

    private static func fileSize(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}
