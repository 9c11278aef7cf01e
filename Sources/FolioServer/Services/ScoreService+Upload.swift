import FolioLibrary
import FolioScore
import Foundation

extension ScoreService {
    /// What became of an uploaded file (see `LibraryIntake.Result`), with the scores it
    /// made or changed as the API shows them.
    ///
    /// ```swift
    /// let added = try service.upload(name: "Koncert.4ss", file: spooled, openIn: nil)
    /// added.summary   // "Koncert.4ss: forScore setlist (4SS) → setlist "Koncert" (5 entries, 1 placeholder(s))"
    /// ```
    public struct Intake: Encodable, Sendable {
        public var kind: IntakeKind
        /// False when nothing was written: a library CSV shown first (send it again with apply).
        public var applied: Bool
        public var summary: String
        public var lines: [String]
        /// The first score made (for clients that add one file at a time).
        public var score: Score?
        public var scores: [Score]
        public var changed: [Score]
        public var setlists: [String]
        public var warnings: [String]
    }

    /// Takes in a received file, already written whole to `file` (see ``UploadSpool``), as
    /// forScore would (`LibraryIntake`): a PDF, image, text or office document becomes a
    /// score — moved in under the received name with `.pdf`, or "Name 2.pdf"… when that name
    /// is taken in any Unicode form or case, nothing ever overwritten — with the Open In
    /// dictionary `openIn` applied; a 4SS becomes a setlist, a 4SB and a 4SC are imported, a
    /// CSV or dictionary goes to the score `target` (or the one named like it). A library CSV
    /// that sets scores' fields is only planned unless `apply`. 400 for a bad name or a
    /// malformed file, 404 for a CSV or dictionary whose score is not found, 415 for a kind
    /// Folio does not take, 422 for a file that is not what its first bytes claim, 413 past
    /// the limits, 503 without LibreOffice for an office document.
    public func upload(name: String, file: String, openIn: Data?, apply: Bool = true, target: Int64? = nil) throws -> Intake {
        let name = try Self.receivedName(name)
        guard let kind = (try? IntakeKind.of(file: file)) ?? nil else {
            throw LibraryError(.unsupportedKind, IntakeKind.refusal(of: name))
        }
        var options = intakeOptions(apply: apply)
        options.openIn = openIn
        if let target { options.score = try score(target).0.path }
        return try intake(LibraryIntake.take(received: file, name: name, kind: kind, catalog: catalog, options: options))
    }

    /// What became of one file of a drop: its place in the drop, its name, and the intake or
    /// the failure.
    public struct DropOutcome: Sendable {
        public var index: Int
        public var name: String
        public var outcome: Result<Intake, any Error>
    }

    /// Takes in the files of a drop (see ``UploadDrops``) as one, in `LibraryIntake.addAll`'s
    /// order: scores first, then the rest, a file still without its score tried once more at
    /// the end. Each outcome in the order taken; a library CSV that sets scores' fields is only
    /// planned (send it again with apply).
    public func takeDrop(_ files: [String]) -> [DropOutcome] {
        var outcomes: [DropOutcome] = []
        let places = Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        LibraryIntake.addAll(files: files, catalog: catalog, options: { intakeOptions(apply: false) }) { file, result in
            let outcome = result.flatMap { taken in Result { try intake(taken) } }
            outcomes.append(DropOutcome(index: places[file] ?? 0, name: (file as NSString).lastPathComponent, outcome: outcome))
        }
        return outcomes
    }

    /// How the server takes a file in: its limits (a time budget from now), converter and
    /// author; a library CSV that sets scores' fields written only with `apply`.
    private func intakeOptions(apply: Bool) -> LibraryIntake.Options {
        var options = LibraryIntake.Options()
        options.applyLibraryCSV = apply
        options.readOptions = work.readOptions()
        options.forScore = .server(read: options.readOptions)
        options.converter = converter
        options.author = author
        return options
    }

    /// An intake's result as the API shows it.
    private func intake(_ result: LibraryIntake.Result) throws -> Intake {
        let made = try result.scores.map(entry), changed = try result.changed.map(entry)
        return Intake(kind: result.kind, applied: result.applied, summary: result.summary, lines: result.lines, score: made.first,
                      scores: made, changed: changed, setlists: result.setlists, warnings: result.warnings)
    }

    /// The catalogued score at `relative`, just written (an upload, a split's piece, a merge).
    func entry(_ relative: String) throws -> Score {
        guard let entry = try (catalog.show(relative)).first(where: { $0.bookmark == nil }) else {
            throw LibraryError(.internal, "\(relative) was saved but not catalogued")
        }
        return Score(entry)
    }

    /// A received file's name in composed form (NFC): a plain name (no folders, not hidden),
    /// at most 200 bytes, without control characters (tabs, line ends) or bidirectional
    /// overrides, which can make a name look like another.
    static func receivedName(_ name: String) throws -> String {
        let trimmed = CatalogPath.key(name.trimmingCharacters(in: .whitespaces))
        if let refusal = CatalogPath.refusal(ofFileName: trimmed) {
            throw LibraryError(.invalidArgument, "name: \(refusal)")
        }
        guard !trimmed.isEmpty, trimmed.utf8.count <= 200, trimmed.unicodeScalars.first != ".",
              !trimmed.unicodeScalars.contains(where: { $0 == "/" || $0 == "\\" }) else {
            throw LibraryError(.invalidArgument, "name must be a file name (no folders, not hidden, at most 200 bytes)")
        }
        return trimmed
    }
}
