#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Writes files so that nothing is ever lost: a temporary file in the same folder,
/// fsync, rename over the target, fsync of the folder. On any error the target is left
/// as it was and the temporary file is removed. The target's permissions are kept.
///
/// ```swift
/// try SafeFile.write(to: "score.pdf", parts: [originalBytes, appendedBytes])
/// ```
public enum SafeFile {
    /// Points at which tests inject failures.
    enum Stage: Sendable {
        case created, wrotePart(Int), synced
    }

    /// Writes the concatenation of `parts` to `path` atomically.
    public static func write(to path: String, parts: [UnsafeRawBufferPointer]) throws {
        try write(to: path, parts: parts, fault: nil)
    }

    /// Writes `bytes` to `path` atomically.
    public static func write(to path: String, bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write(to: path, parts: [$0], fault: nil) }
    }

    /// Writes `source`'s bytes followed by `tail`, copying the source inside the kernel
    /// where the system allows (no trip through the mapping).
    static func write(to path: String, source: ByteSource, tail: UnsafeRawBufferPointer,
                      fault: ((Stage) throws -> Void)?) throws {
        try write(to: path, parts: [source.bytes, tail], copySource: source, fault: fault)
    }

    static func write(to path: String, parts: [UnsafeRawBufferPointer], copySource: ByteSource? = nil,
                      fault: ((Stage) throws -> Void)?) throws {
        let directory = parentDirectory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        // An existing target's permissions are copied onto the new file; a new one gets
        // 0666 less the umask from open() itself (reading the umask means changing it,
        // which races with other threads).
        var existing = stat()
        let existingMode: mode_t? = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : nil
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 {
            let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
            temporary = (directory == "." && !path.hasPrefix("./") ? "" : directory + "/") + ".\(name).folio-\(suffix).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, existingMode == nil ? 0o666 : 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else {
            throw PDFError(.io, "cannot create a temporary file in \(directory): \(lastError())")
        }
        var committed = false
        defer {
            if fd >= 0 { close(fd) }
            if !committed { unlink(temporary) }
        }
        try fault?(.created)
        for (index, part) in parts.enumerated() {
            if index == 0, let copySource, copyInKernel(from: copySource, to: fd) {
                // copied
            } else {
                try writeAll(fd, part, path: temporary)
            }
            try fault?(.wrotePart(index))
        }
        if let existingMode {
            guard fchmod(fd, existingMode) == 0 else {
                throw PDFError(.io, "cannot set permissions of \(temporary): \(lastError())")
            }
            // Keep the owner where we may (root, or the same user); failure is harmless.
            _ = fchown(fd, existing.st_uid, existing.st_gid)
        }
        guard fsync(fd) == 0 else { throw PDFError(.io, "cannot sync \(temporary): \(lastError())") }
        try fault?(.synced)
        close(fd)
        fd = -1
        guard rename(temporary, path) == 0 else {
            throw PDFError(.io, "cannot replace \(path): \(lastError())")
        }
        committed = true
        // Make the rename itself durable.
        let directoryFD = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    private static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, path: String) throws {
        guard let base = buffer.baseAddress else { return }
        var written = 0
        while written < buffer.count {
            let result = posixWrite(fd, base + written, buffer.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw PDFError(.io, "cannot write \(path): \(lastError())")
            }
            written += result
        }
    }

    /// sendfile from the source file; false when unavailable (the caller then
    /// writes from memory). A partial copy is rewound so the fallback starts clean.
    private static func copyInKernel(from source: ByteSource, to fd: Int32) -> Bool {
        #if os(Linux)
        guard source.fileDescriptor >= 0 else { return false }
        var offset: off_t = 0
        var remaining = source.count
        while remaining > 0 {
            let copied = sendfile(fd, source.fileDescriptor, &offset, remaining)
            if copied < 0 && errno == EINTR { continue }
            guard copied > 0 else {
                _ = ftruncate(fd, 0)
                _ = lseek(fd, 0, SEEK_SET)
                return false
            }
            remaining -= copied
        }
        return true
        #else
        return false
        #endif
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

@inline(__always) private func posixWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, pointer, count)
}
