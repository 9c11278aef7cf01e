import FolioPDF
import Foundation

/// Word, RTF and OpenDocument text made into PDF by LibreOffice headless (Debian's
/// `libreoffice-writer-nogui`), as forScore converts them on import: an optional run-time
/// dependency, found as `soffice` on the `PATH` (or `FOLIO_SOFFICE`); when it is missing,
/// ``convert(_:format:name:)`` throws ``ScoreError`` `.unavailable` saying how to install it.
///
/// Each conversion runs in a private folder with a fresh profile whose settings forbid
/// macros, without network (in a network namespace of its own, `unshare -rn`, where the
/// kernel allows one), under a time limit that ends LibreOffice and every process it started,
/// with its output files bounded in size; one conversion at a time per converter. A DOCX or
/// ODT is checked first (``OfficePackage``: zip bombs, paths, entities) so LibreOffice never
/// sees a hostile package. The title is the document's own (its properties), else its first
/// heading (the first entry of the outline LibreOffice writes from headings).
///
/// ```swift
/// let converter = OfficeConverter()
/// let made = try converter.convert(Array(try Data(contentsOf: docx)), format: .docx, name: "Písnička.docx")
/// made.title   // "Písnička o Praze"
/// ```
public final class OfficeConverter: Sendable {
    /// The office formats converted.
    ///
    /// ```swift
    /// OfficeConverter.Format.rtf.fileExtension   // "rtf"
    /// ```
    public enum Format: String, Sendable, CaseIterable {
        case rtf, doc, docx, odt

        public var fileExtension: String { rawValue }
    }

    /// A converted document: the PDF and the title found in it.
    ///
    /// ```swift
    /// let made = try OfficeConverter().convert(rtf, format: .rtf, name: "Lyrics.rtf")
    /// made.pdf.count; made.title
    /// ```
    public struct Converted: Sendable {
        public var pdf: [UInt8]
        public var title: String?
        /// What the caller should know (LibreOffice ran without network isolation).
        public var warnings: [String]
    }

    /// How conversions run.
    ///
    /// ```swift
    /// let converter = OfficeConverter(options: .init(executable: "/opt/libreoffice/program/soffice", seconds: 30))
    /// ```
    public struct Options: Sendable {
        /// LibreOffice's `soffice`; nil: `FOLIO_SOFFICE`, else `soffice` or `libreoffice` on the `PATH`.
        public var executable: String?
        /// The longest one conversion may take.
        public var seconds: Int
        /// The largest document taken, and the largest file LibreOffice may write.
        public var maxInput: Int
        public var maxOutput: Int

        public init(executable: String? = nil, seconds: Int = 120, maxInput: Int = 128 << 20, maxOutput: Int = 512 << 20) {
            self.executable = executable
            self.seconds = seconds
            self.maxInput = maxInput
            self.maxOutput = maxOutput
        }
    }

    public let options: Options
    private let gate = NSLock()

    public init(options: Options = Options()) {
        self.options = options
    }

    /// The command to install LibreOffice, for messages.
    public static let installHint = "install LibreOffice (sudo apt-get install libreoffice-writer-nogui) or set FOLIO_SOFFICE to its soffice"

    /// The `soffice` that conversions run, or nil when none is installed.
    public func executable() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = options.executable ?? environment["FOLIO_SOFFICE"] {
            return FileManager.default.isExecutableFile(atPath: chosen) ? chosen : nil
        }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init) + ["/usr/lib/libreoffice/program"]
        for folder in folders {
            for name in ["soffice", "libreoffice"] {
                let path = (folder as NSString).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    /// Converts a document of `format` to PDF; `name` is for messages only (the document is
    /// written under a name of Folio's). Throws ``ScoreError``: `.unavailable` without
    /// LibreOffice, `.limitExceeded` past the size or time limits, `.malformed` for a
    /// document LibreOffice cannot read (or a package ``OfficePackage`` refuses).
    public func convert(_ bytes: [UInt8], format: Format, name: String) throws -> Converted {
        guard bytes.count <= options.maxInput else {
            throw ScoreError(.limitExceeded, "\(name) is \(bytes.count) bytes (valid: documents up to \(options.maxInput) bytes)")
        }
        if format == .docx || format == .odt {
            let package = try OfficePackage(bytes: bytes)
            guard package.format?.rawValue == format.rawValue else {
                throw ScoreError(.unreadable, "\(name) is a ZIP but not a \(format.rawValue.uppercased()) document")
            }
            try package.check()
        }
        guard let soffice = executable() else {
            throw ScoreError(.unavailable, "\(name) needs LibreOffice to become a PDF, and it is not installed: \(Self.installHint)")
        }
        gate.lock()
        defer { gate.unlock() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-office-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: folder + "/profile/user", withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
            try Data(Self.profileSettings.utf8).write(to: URL(fileURLWithPath: folder + "/profile/user/registrymodifications.xcu"))
        } catch {
            throw ScoreError(.unreadable, "cannot prepare a folder for LibreOffice in \(folder): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/document." + format.fileExtension
        guard FileManager.default.createFile(atPath: input, contents: Data(bytes)) else {
            throw ScoreError(.unreadable, "cannot write \(input)")
        }
        let isolated = Self.canIsolateNetwork()
        let (status, log) = try run(soffice, input: input, folder: folder, isolated: isolated)
        let output = folder + "/out/document.pdf"
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? -1
        if status == 124 || status == 137 {
            throw ScoreError(.limitExceeded, "LibreOffice did not convert \(name) within \(options.seconds) seconds")
        }
        guard size > 0 else {
            let said = log.split(separator: "\n").filter { $0.contains("Error") }.joined(separator: "; ")
            throw ScoreError(.unreadable, "LibreOffice could not read \(name) as \(format.rawValue.uppercased())" + (said.isEmpty ? "" : ": \(said)"))
        }
        guard size <= options.maxOutput, status != 153 else {
            throw ScoreError(.limitExceeded, "the PDF of \(name) is larger than \(options.maxOutput) bytes")
        }
        guard let data = FileManager.default.contents(atPath: output) else { throw ScoreError(.unreadable, "cannot read \(output)") }
        let pdf = Array(data)
        let document: PDFDocument
        do { document = try PDFDocument(bytes: pdf) } catch let error as PDFError {
            throw ScoreError(.unreadable, "LibreOffice's PDF of \(name) cannot be read: \(error.message)")
        }
        var warnings: [String] = []
        if !isolated { warnings.append("LibreOffice ran with the network reachable: this system does not allow unshare -rn") }
        return Converted(pdf: pdf, title: Self.title(of: document), warnings: warnings)
    }

    /// The document's title (Info, which LibreOffice fills from the document's properties),
    /// else its first heading (the outline's first entry).
    static func title(of document: PDFDocument) -> String? {
        for candidate in [document.info.title, document.outline().first?.title] {
            let text = (candidate ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { return text }
        }
        return nil
    }

    /// Runs LibreOffice under `timeout` (which ends its whole process group) and a file-size
    /// limit, in a network namespace of its own when `isolated`; returns the exit status and
    /// what it printed (at most 64 KiB).
    private func run(_ soffice: String, input: String, folder: String, isolated: Bool) throws -> (Int32, String) {
        let filter = #"pdf:writer_pdf_Export:{"ExportBookmarks":{"type":"boolean","value":"true"}}"#
        var command = ["/usr/bin/timeout", "-k", "5", "\(options.seconds)"]
        if isolated { command += ["/usr/bin/unshare", "-rn"] }
        // ulimit -f counts 512-byte blocks in POSIX sh; a larger file ends the writer (SIGXFSZ, 153).
        command += ["/bin/sh", "-c", "ulimit -f \(options.maxOutput / 512 + 1); exec \"$0\" \"$@\"", soffice,
                    "-env:UserInstallation=file://\(folder)/profile", "--headless", "--invisible", "--norestore", "--nologo",
                    "--nodefault", "--nolockcheck", "--nofirststartwizard", "--convert-to", filter, "--outdir", folder + "/out", input]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let environment = ProcessInfo.processInfo.environment
        process.environment = ["HOME": folder, "PATH": environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
                               "TMPDIR": folder, "SAL_USE_VCLPLUGIN": "svp"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw ScoreError(.unavailable, "cannot run LibreOffice (\(soffice)): \(error.localizedDescription); \(Self.installHint)")
        }
        var log: [UInt8] = []
        let reader = pipe.fileHandleForReading
        while let chunk = try? reader.read(upToCount: 16 << 10), !chunk.isEmpty {
            if log.count < 64 << 10 { log += chunk.prefix(64 << 10 - log.count) }
        }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: log, as: UTF8.self))
    }

    /// Whether `unshare -rn` works here (user namespaces allowed); asked once per call.
    static func canIsolateNetwork() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-rn", "/bin/true"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The profile's settings: macros never run (the highest security level, execution
    /// disabled), no update checks, links to untrusted places not followed.
    static let profileSettings = """
        <?xml version="1.0" encoding="UTF-8"?>
        <oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
        <item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
        <item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
        <item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
        <item oor:path="/org.openoffice.Office.Jobs/Jobs/org.openoffice.Office.Jobs:Job['UpdateCheck']/Arguments"><prop oor:name="AutoCheckEnabled" oor:op="fuse"><value>false</value></prop></item>
        </oor:items>
        """
}
