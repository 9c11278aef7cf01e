extension PDFSaver {
    /// Takes a file back to an earlier revision: its first `length` bytes, which every
    /// incremental update since left untouched. This is how an edit is undone without
    /// knowing what it changed. Runs under the file's lock; `check` runs there first
    /// (to refuse when someone else changed the file meanwhile), then the prefix replaces
    /// the file atomically. Refused unless `length` is shorter than the file and the
    /// prefix ends a revision (`%%EOF` within its last 1,024 bytes: files often carry a
    /// few bytes of padding after it). Returns the file's status right after, still under
    /// its lock.
    ///
    /// ```swift
    /// let before = try ByteSource(path: "score.pdf").count
    /// try PDFSaver.update(path: "score.pdf") { try $0.setInfo("Title", to: "Draft") }
    /// try PDFSaver.revert(path: "score.pdf", toLength: before)   // the title is back
    /// ```
    @discardableResult
    public static func revert(path: String, toLength length: Int, lockTimeout: Double = 10,
                              check: () throws -> Void = {}) throws -> FileStatus? {
        try FileLock.withExclusiveLock(on: path, timeout: lockTimeout) { _ in
            try check()
            let source = try ByteSource(path: path)
            guard length > 0, length < source.count else {
                throw PDFError(.invalidArgument, "cannot go back to \(length) bytes: the file has \(source.count)")
            }
            guard lastEndOfFile(source.bytes, within: length) != nil else {
                throw PDFError(.invalidArgument, "the first \(length) bytes of \(path) do not end a revision (no %%EOF there)")
            }
            try SafeFile.write(to: path, parts: [UnsafeRawBufferPointer(rebasing: source.bytes[0..<length])])
            return FileStatus(path: path)
        }
    }

    /// Where the `%%EOF` that ends the revision made of the first `length` bytes starts: the
    /// last one within their last 1,024 bytes (files often carry a few bytes of padding after
    /// it); nil when there is none, and the first `length` bytes end no revision.
    static func lastEndOfFile(_ bytes: UnsafeRawBufferPointer, within length: Int) -> Int? {
        let marker = Array("%%EOF".utf8)
        guard length >= marker.count, length <= bytes.count else { return nil }
        return Lexer(bytes: bytes).findLast(marker, before: length - marker.count, floor: max(0, length - 1024))
    }
}
