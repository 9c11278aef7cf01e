import ArgumentParser
import FolioScore
import Foundation

/// `folio annot`: annotations read, added, edited, removed, flattened, exported, imported.
struct AnnotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "annot",
        abstract: "List, add, edit, remove, flatten, export and import the annotations of PDFs.",
        discussion: """
            Coordinates are those a UI has: points from the top-left corner of the page as displayed (crop box, \
            /Rotate applied), y growing down. --user-space takes raw PDF user space instead (origin bottom-left of \
            the media box, y up; a --rect's x,y is then its lower-left corner).
            """,
        subcommands: [AnnotListCommand.self, AnnotAddCommand.self, AnnotEditCommand.self, AnnotRemoveCommand.self,
                      AnnotFlattenCommand.self, AnnotExportCommand.self, AnnotImportCommand.self],
        defaultSubcommand: AnnotListCommand.self
    )

    /// Edits `options.file` through ``EditFileOptions/update(_:change:)``: invalid values
    /// exit 64, a file that cannot be read, written or annotated (permissions) exits 1.
    static func edit<T>(_ command: String, _ options: EditFileOptions, change: (ScoreFile.Document) throws -> T) throws -> T {
        try options.update("annot \(command)", change: change)
    }
}

/// `folio annot list`.
struct AnnotListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the annotations of PDFs (the default of `folio annot`).",
        discussion: """
            Text output: one line per annotation with its id, page, subtype, rectangle as displayed (x,y,w,h from the \
            top-left) and contents. With --json, one object per file: \
            {"path","annotations":[{"id","object","page","subtype","rect","display","contents","author","name","modified", \
            "color","fill","opacity","width","flags","quadPoints","inkList","line","lineEndings","vertices","icon", \
            "font","fontSize","textColor","alignment","popup","inReplyTo","hasAppearance"}]}: page 1-based, rect the \
            /Rect in user space as [x1,y1,x2,y2] with x1 ≤ x2 and y1 ≤ y2, display the rectangle as shown \
            [x,y,w,h], colours "#rrggbb" or null. Ids are the /NM when unique on its page, else obj-N (object number) \
            or pP-I (page and index of a direct annotation); the edit commands take them.
            Exit codes: 0 every file read; 1 a file could not be read (or has no such --page); 64 usage error.
            """
    )

    @Flag(help: "Print one JSON object per file (JSON Lines).") var json = false
    @Option(parsing: .unconditional, help: "Only this page (1-based).") var page: Int?
    @Option(help: "Password for encrypted files.") var password: String?
    @Argument(help: "PDF files.") var files: [String]

    func validate() throws {
        if let page, page < 1 { throw ValidationError("page \(page) is out of range (valid: 1 or more)") }
    }

    func run() throws {
        let (json, password, page) = (self.json, self.password, self.page)
        // One file is read on every core, page by page; many files take a core each.
        let readers = files.count == 1 ? ProcessInfo.processInfo.activeProcessorCount : 1
        let succeeded = FileBatch.run(files, command: "annot list", json: json) { index, path -> Printed in
            let score = ScoreFile(path, password: password)
            if json { return try AnnotFormat.json(path: path, score, page: page, readers: readers) }
            return Printed(AnnotFormat.text(path: path, try AnnotationListing.list(try score.open(), page: page), separator: index > 0))
        }
        if !succeeded { throw ExitCode(1) }
    }
}
