import Foundation
import XCTest

/// Where the tests find the corpus, the oracle and the built `folio` binary.
public enum TestEnvironment {
    /// The repository root.
    public static let repositoryRoot: URL = SharedCorpus.repositoryRoot

    /// The shared corpus (see ``SharedCorpus``): skipped without it, unless CI requires it.
    public static var corpus: URL {
        get throws { try SharedCorpus.folder() }
    }

    public static func corpusFile(_ relative: String) throws -> String {
        try SharedCorpus.file(relative)
    }

    /// Copies a file or a folder as a user copies it to work on: writable by its owner,
    /// whatever the source's mode. The shared corpus is read-only (mode 444), and Folio keeps
    /// a file its owner may not write, root too (docs/saves.md): a copy that kept the mode
    /// would be refused by every edit.
    public static func copy(atPath source: String, toPath target: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: target)
        try ownerWritable(target)
    }

    /// ``copy(atPath:toPath:)`` by URLs.
    public static func copy(at source: URL, to target: URL) throws {
        try copy(atPath: source.path, toPath: target.path)
    }

    private static func ownerWritable(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFLNK else { return }
        guard chmod(path, (info.st_mode & 0o7777) | S_IWUSR) == 0 else { throw TestFailure("cannot make \(path) writable") }
        if info.st_mode & S_IFMT == S_IFDIR {
            for child in try FileManager.default.contentsOfDirectory(atPath: path) { try ownerWritable(path + "/" + child) }
        }
    }

    /// Every PDF in the corpus, as paths relative to it, sorted.
    public static func corpusPDFs() throws -> [String] {
        let base = try corpus.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: base) else {
            throw TestFailure("corpus not found at \(base)")
        }
        var result: [String] = []
        while let item = enumerator.nextObject() as? String {
            if item.lowercased().hasSuffix(".pdf") { result.append(item) }
        }
        return result.sorted()
    }

    /// The `folio` executable built next to the test bundle (or `$FOLIO_BIN`).
    public static func folioBinary() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["FOLIO_BIN"] { return URL(fileURLWithPath: path) }
        var candidates: [URL] = []
        let argument = URL(fileURLWithPath: CommandLine.arguments[0])
        candidates.append(argument.deletingLastPathComponent().appendingPathComponent("folio"))
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("folio"))
        }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw TestFailure("folio binary not found next to the tests (looked in \(candidates.map(\.path)))")
    }

    /// Runs a program (in `workingDirectory` when given), returning exit status and output.
    /// Output goes through files so a large output cannot block the child.
    @discardableResult
    public static func run(_ executable: URL, _ arguments: [String], timeout: TimeInterval = 600,
                    environment: [String: String] = [:], directory workingDirectory: URL? = nil) throws
        -> (status: Int32, stdout: Data, stderr: Data)
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("out")
        let errURL = directory.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                throw TestFailure("\(executable.lastPathComponent) did not finish within \(Int(timeout)) s")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return (process.terminationStatus, try Data(contentsOf: outURL), try Data(contentsOf: errURL))
    }

    /// Whether a file declares itself linearized (a /Linearized dictionary in its first 2 KB).
    public static func isLinearized(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return String(decoding: handle.readData(ofLength: 2048), as: UTF8.self).contains("/Linearized")
    }

    /// The corpus score the annotation tests write into (a flute partita with room for marks).
    public static let annotatedScore = "scores/Bach-Partita_in_a_minor_BWV_1013.pdf"

    /// What `qpdf --check` warns of or reports as errors, the file's path written as FILE.
    public static func qpdfProblems(_ path: String) throws -> Set<String> {
        let result = try runTool("qpdf", ["--check", path])
        return Set(String(decoding: result.stdout + result.stderr, as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("WARNING") || $0.contains("ERROR") }
            .map { $0.replacingOccurrences(of: path, with: "FILE") })
    }

    /// Writes `manifest` as `manifest.json` in `directory` and runs the oracle script
    /// `Tests/Oracle/SCRIPT` on it: its standard output; a failure when the script fails.
    public static func checkManifest(_ manifest: [[String: Any]], in directory: URL, script: String,
                                     timeout: TimeInterval) throws -> Data {
        let manifestURL = directory.appendingPathComponent("manifest.json")
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
        let path = repositoryRoot.appendingPathComponent("Tests/Oracle/" + script).path
        let run = try runTool("python3", [path, manifestURL.path], timeout: timeout)
        guard run.status == 0 else {
            throw TestFailure("\(script) failed: \(String(decoding: run.stderr.suffix(2000), as: UTF8.self))")
        }
        return run.stdout
    }

    /// Makes a recording at `path` with ffmpeg: a sine tone of `seconds` at `hertz`, encoded as
    /// `arguments` (codec, rate, metadata) and the file's extension say; its folder is created.
    public static func recording(at path: String, seconds: Double = 3, hertz: Int = 440, _ arguments: [String] = []) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let run = try runTool("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=\(hertz):duration=\(seconds)"]
                                  + arguments + [path])
        guard run.status == 0 else {
            throw TestFailure("ffmpeg could not make \(path): \(String(decoding: run.stderr, as: UTF8.self))")
        }
    }

    /// The objects of JSON Lines output (what every `--json` prints), one per line; a line
    /// that is not a JSON object is a ``TestFailure``.
    public static func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw TestFailure("not a JSON object: \(line)")
            }
            return object
        }
    }

    /// Runs a Python script (`python3 -c code FILE...`) — the reference tools (pikepdf,
    /// PyMuPDF, pypdfium2) read what Folio wrote — and returns its output, trimmed; a failing
    /// script is a ``TestFailure`` with its error output.
    public static func python(_ code: String, _ files: String...) throws -> String {
        let result = try runTool("python3", ["-c", code] + files)
        guard result.status == 0 else {
            throw TestFailure("python3 failed on \(files.joined(separator: ", ")): \(String(decoding: result.stderr, as: UTF8.self))")
        }
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a tool found on PATH.
    public static func runTool(_ name: String, _ arguments: [String], timeout: TimeInterval = 600) throws
        -> (status: Int32, stdout: Data, stderr: Data)
    {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, timeout: timeout)
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
