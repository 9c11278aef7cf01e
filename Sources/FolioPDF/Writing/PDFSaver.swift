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
    /// `path` (by default the file it was opened from). Without changes nothing is written.
    public static func saveIncrementally(_ document: PDFDocument, to path: String? = nil) throws {
        try saveIncrementally(document, to: path, fault: nil)
    }

    static func saveIncrementally(_ document: PDFDocument, to path: String?, fault: ((SafeFile.Stage) throws -> Void)?)
        throws
    {
        guard let target = path ?? document.source.path else {
            throw PDFError(.invalidArgument, "the document was not read from a file; give an output path")
        }
        guard document.hasChanges else {
            if target != document.source.path {
                try SafeFile.write(to: target, parts: [document.source.bytes], fault: fault)
            }
            return
        }
        let update = try IncrementalWriter.update(for: document)
        try update.withUnsafeBytes { tail in
            try SafeFile.write(to: target, source: document.source, tail: tail, fault: fault)
        }
    }

    /// Writes the document as a new file: reachable objects only, renumbered.
    public static func rewrite(_ document: PDFDocument, to path: String, options: RewriteOptions = RewriteOptions())
        throws
    {
        try rewrite(document, to: path, options: options, fault: nil)
    }

    static func rewrite(_ document: PDFDocument, to path: String, options: RewriteOptions,
                        fault: ((SafeFile.Stage) throws -> Void)?) throws {
        let bytes = try FullWriter.rewrite(document, options: options)
        try bytes.withUnsafeBytes { try SafeFile.write(to: path, parts: [$0], fault: fault) }
    }

    /// The whole read–edit–save cycle under an advisory lock, so concurrent writers
    /// apply their edits one after the other: opens `path`, lets `edit` change the
    /// document, and saves incrementally. With an `output` other than `path`, the update
    /// goes there and `path` is only read. Returns what `edit` returns.
    @discardableResult
    public static func update<T>(path: String, output: String? = nil, password: String? = nil,
                                 options: PDFReadOptions = PDFReadOptions(), lockTimeout: Double = 10,
                                 edit: (PDFDocument) throws -> T) throws -> T {
        if let output, output != path {
            let document = try PDFDocument(path: path, password: password, options: options)
            let result = try edit(document)
            try saveIncrementally(document, to: output)
            return result
        }
        return try FileLock.withExclusiveLock(on: path, timeout: lockTimeout) {
            let document = try PDFDocument(path: path, password: password, options: options)
            let result = try edit(document)
            try saveIncrementally(document, to: path)
            return result
        }
    }
}
