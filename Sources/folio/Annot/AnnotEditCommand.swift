import ArgumentParser
import FolioScore
import Foundation

/// `folio annot edit`.
struct AnnotEditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an annotation by id; its appearance stream is regenerated (incremental update).",
        discussion: """
            --rect moves and resizes it (strokes, quads and line ends follow); --text replaces its contents (a \
            freetext's text); --color, --fill, --opacity, --width, --size, --align restyle it; --font-file redraws a freetext in that font. Links, widgets and \
            popups are not edited.
            Example: folio annot edit part.pdf --id 6f1c… --text "Cut to bar 52" --color "#0050c0"
            Exit codes: 0 saved; 1 no annotation has the id, or the file could not be read, written or annotated \
            (untouched); 64 an invalid value (untouched).
            """
    )

    @OptionGroup var options: EditFileOptions
    @Option(help: "The annotation's id, as `folio annot list` shows it.") var id: String
    @Option(parsing: .unconditional, help: "The page the id is on (needed only when it is on several).") var page: Int?
    @Option(help: "New rectangle x,y,w,h.") var rect: String?
    @Flag(help: "--rect is in PDF user space (origin bottom-left, y up).") var userSpace = false
    @Option(help: "New contents (a freetext's text).") var text: String?
    @OptionGroup var style: AnnotStyleOptions

    /// What the options ask for, as the one edit both the CLI and the server change marks by.
    func edit() throws -> AnnotationEdit {
        var edit = AnnotationEdit(id: id)
        edit.page = page
        edit.rect = try rect.map { try AnnotPlaceOptions.numbers($0, option: "rect", multipleOf: 4) }
        edit.userSpace = userSpace
        edit.text = text
        try style.apply(to: &edit)
        return edit
    }

    func validate() throws {
        do { try edit().validate() } catch let error as ScoreError { throw ValidationError(error.message) }
    }

    func run() throws {
        let edit = try edit()
        try AnnotCommand.edit("edit", options) { document in try edit.apply(to: document) }
    }
}

/// `folio annot remove`.
struct AnnotRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove annotations by id, or all of given types (incremental update); prints the ids removed.",
        discussion: """
            An annotation goes with its popup and the replies to it. --all removes every markup annotation of the \
            document (or of --page), or only those of each --type (subtype names such as Ink, Highlight, FreeText, or \
            the `add` type names); links and widgets go only when named with --type Link or --type Widget. \
            Prints the id of each annotation removed, one a line; with --dry-run, "would remove ID (page N, Subtype: \
            its text)" for each and nothing is written.
            Example: folio annot remove part.pdf --all --type ink --page 3
            Exit codes: 0 saved; 1 no annotation has an id given, or the file could not be read, written or annotated \
            (untouched); 64 a page out of range (untouched).
            """
    )

    @OptionGroup var options: EditFileOptions
    @Option(help: "An annotation's id (repeat for several).") var id: [String] = []
    @Flag(help: "Remove all markup annotations (of --type, when given).") var all = false
    @Option(help: "With --all: only this subtype (repeat).") var type: [String] = []
    @Option(parsing: .unconditional, help: "Only on this page (1-based).") var page: Int?

    private var removal: AnnotationRemoval {
        all ? .all(types: type, page: page) : AnnotationRemoval(ids: id, page: page)
    }

    func validate() throws {
        guard all != !id.isEmpty else { throw ValidationError("give --id ID... or --all") }
        if !type.isEmpty, !all { throw ValidationError("--type goes with --all") }
        do { try removal.validate() } catch let error as ScoreError { throw ValidationError(error.message) }
    }

    func run() throws {
        let dryRun = options.dryRun
        let removed = try AnnotCommand.edit("remove", options) { document -> [String] in
            // What a dry run names is read before the removal: the page, the kind and the words of each.
            let told = dryRun ? try AnnotationListing.described(document) : [:]
            let ids = try removal.apply(to: document)
            guard dryRun else { return ids }
            return ids.map { id in "would remove \(id)" + (told[id].map { " (\($0))" } ?? "") }
        }
        for line in removed { print(line) }
    }
}
