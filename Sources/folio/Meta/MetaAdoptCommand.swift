import ArgumentParser
import FolioScore

/// `folio meta adopt`.
struct MetaAdoptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adopt",
        abstract: "Take notation programs' own metadata (LilyPond's /Composer, /Subtitle, /Arranger, /Poet, /Opus…) into forScore's fields.",
        discussion: """
            Rules (a field that has a value is never changed, so running twice changes nothing):
              composer  /Composer → composers; life dates "(1833-1897)" dropped; what follows them, or a catalogue
                        number after a comma ("M. Clementi, Opus 36 No. 1"), → reference; text after ";" stays out
              arranger  /Arranger joins the composers, "arr. by", "Arreglo por"… dropped; /Poet is no composer and
                        stays where it is (folio library show names the poet as the lyricist)
              page-heading  MuseScore (Sibelius, Finale, Dorico) draw the composer only on the page: with no
                        author in the file, the line right-aligned under the first page's title → composers
              subtitle  /Subtitle → reference when it is a catalogue number (KV 397, D 899-3, Op. 28), else added
                        to the title in parentheses, TeX quotes removed: "Prelude (Raindrop)"
              opus      /Opus → reference
              title-extension  a title that is a notation file's name (.mscz .sib .musx .dorico .ly .mxl .docx…)
                        loses the extension
              title-whitespace  white space around the title trimmed
            Prints a table of before → after per file (--json: one line per change); --dry-run writes nothing.
            Examples:
              folio meta adopt --library ~/Scores --dry-run
              folio meta adopt Faure.pdf
            Exit codes: 0 every file read (and saved); 1 a file failed (left byte-identical); 64 usage error.
            """
    )

    @Flag(help: "Print what would change; write nothing.") var dryRun = false
    @OptionGroup var targets: BulkTargets

    func run() throws {
        let ok = try targets.run(command: "meta adopt", dryRun: dryRun) { document, _ in
            ProducerConventions.change(for: document)
        }
        if !ok { throw ExitCode(1) }
    }
}
