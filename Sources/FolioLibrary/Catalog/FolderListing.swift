#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FolioScore
import Foundation

/// What one folder holds: PDFs, possible audio files and folders, by path relative to the
/// library (hidden names and symbolic links left out). What a scan lists
/// (``LibraryScanner``), one folder at a time.
///
/// ```swift
/// let top = try FolderListing(relative: "", in: "/scores")
/// print(top.scores.map(\.path), top.folders)   // ["Dvořák - Rusalka.pdf"] ["Janáček"]
/// ```
struct FolderListing: Sendable {
    var scores: [FileStamp] = []
    var audio: [FileStamp] = []
    var folders: [String] = []

    init() {}

    /// Reads the folder `relative` of `library`; fails with the folder and the reason when it
    /// cannot be opened.
    init(relative: String, in library: String) throws {
        let directory = relative.isEmpty ? library : library + "/" + relative
        // The library's own folder may be a link; a folder inside it is never followed.
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (relative.isEmpty ? 0 : O_NOFOLLOW))
        guard descriptor >= 0, let handle = fdopendir(descriptor) else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw LibraryError(.io, "cannot list \(directory): \(reason)")
        }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.utf8.first != UInt8(ascii: ".") else { continue }  // hidden, and "." and ".."
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                folders.append(path)
            case S_IFREG where name.lowercased().hasSuffix(".pdf"):
                scores.append(FileStamp(path: path, info: info))
            case S_IFREG where AudioKind.isCandidate(name):
                audio.append(FileStamp(path: path, info: info))
            default:
                continue
            }
        }
    }
}

/// The files found by the folders listed in parallel (``LibraryScanner/files(in:)``).
final class FoundFiles: @unchecked Sendable {  // `scores` and `audio` are guarded by `lock`
    private let lock = NSLock()
    private var scores: [FileStamp]
    private var audio: [FileStamp]

    init(_ top: FolderListing) {
        scores = top.scores
        audio = top.audio
    }

    func add(_ part: FolderListing) {
        lock.withLock {
            scores += part.scores
            audio += part.audio
        }
    }

    func sorted() -> (scores: [FileStamp], audio: [FileStamp]) {
        lock.withLock { (scores.sorted { $0.path < $1.path }, audio.sorted { $0.path < $1.path }) }
    }
}
