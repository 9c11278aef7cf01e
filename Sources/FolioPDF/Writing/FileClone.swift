#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Block sharing: makes a file a copy of another in O(1) where the filesystem can
/// (`FICLONE` on Linux: btrfs, XFS with reflink, bcachefs; `fclonefileat` on APFS).
///
/// ```swift
/// if let refusal = FileClone.clone(from: source, to: temporary) { print("copying instead: \(refusal)") }
/// ```
enum FileClone {
    #if os(Linux)
    /// `_IOW(0x94, 9, int)` from linux/fs.h.
    private static let ficlone: UInt = 0x4004_9409
    #endif

    /// Makes `temporary` (empty, just created) share the blocks of `source`'s file.
    /// Returns nil on success, else why the system refused; `temporary` is then still empty.
    static func clone(from source: ByteSource, to temporary: TemporaryFile) -> String? {
        guard source.fileDescriptor >= 0 else { return "the original is not a file" }
        #if os(Linux)
        guard ioctl(temporary.fd, ficlone, source.fileDescriptor) == 0 else { return SafeFile.lastError() }
        return nil
        #elseif canImport(Darwin)
        // clonefile creates its destination: make room for it, then reopen it.
        unlink(temporary.path)
        guard fclonefileat(source.fileDescriptor, AT_FDCWD, temporary.path, 0) == 0 else {
            let refusal = SafeFile.lastError()
            _ = temporary.reopen(create: true)
            return refusal
        }
        return temporary.reopen(create: false) ? nil : SafeFile.lastError()
        #else
        return "not supported on this system"
        #endif
    }
}
