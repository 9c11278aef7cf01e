import FolioPDF
import FolioScore
import Foundation

/// The user's own metronome sound — a short WAV, as forScore takes them "instead of the
/// default metronome sounds" — kept beside the catalog (`.folio/metronome.wav`): uploaded
/// once or taken from a WAV file in the library folder, checked (`WAVFormat.sample`),
/// written atomically.
///
/// ```swift
/// let sample = MetronomeSample(folder: "/scores")
/// try sample.set(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: "woodblock.wav"))))
/// try sample.set(fromLibrary: "Zvuky/Dřevěný blok.wav", paths: catalog.files)
/// sample.bytes()?.count   // the WAV's size; nil after remove()
/// ```
public struct MetronomeSample: Sendable {
    public let path: String

    public init(folder: String) {
        path = (folder as NSString).appendingPathComponent(".folio/metronome.wav")
    }

    /// The kept sample's bytes; nil when there is none.
    public func bytes() -> [UInt8]? {
        FileManager.default.contents(atPath: path).map(Array.init)
    }

    /// Keeps `bytes` (a WAV of at most `WAVFormat.maxSampleSeconds`) as the sample,
    /// replacing the one kept. Throws `ScoreError` for a file that is not such a WAV.
    @discardableResult
    public func set(bytes: [UInt8]) throws -> WAVFormat {
        let format = try WAVFormat.sample(bytes)
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw LibraryError(.io, "cannot write \(path): \(error.localizedDescription)")
        }
        return format
    }

    /// Keeps the library's WAV file `relative` as the sample; a path that leaves the library
    /// is refused.
    @discardableResult
    public func set(fromLibrary relative: String, paths: LibraryPaths) throws -> WAVFormat {
        guard let absolute = paths.resolve(relative) else {
            throw LibraryError(.notFound, "no file \(relative) inside the library")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: absolute)[.size] as? Int) ?? 0
        guard size <= WAVFormat.maxSampleBytes else {
            throw ScoreError(.limitExceeded, "\(relative) is \(size) bytes (valid: up to \(WAVFormat.maxSampleBytes), a short click)")
        }
        guard let data = FileManager.default.contents(atPath: absolute) else { throw LibraryError(.io, "cannot read \(relative)") }
        return try set(bytes: Array(data))
    }

    /// Goes back to the default click; true when a sample was removed.
    @discardableResult
    public func remove() throws -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        do { try FileManager.default.removeItem(atPath: path) } catch {
            throw LibraryError(.io, "cannot remove \(path): \(error.localizedDescription)")
        }
        return true
    }
}
