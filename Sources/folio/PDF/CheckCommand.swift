import ArgumentParser
import FolioPDF

/// `folio check`: structural check in the spirit of `qpdf --check`.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the structure of PDF files (xref, objects, stream lengths and filters, page tree).",
        discussion: """
            A save journal left beside a file by an interrupted save is reported, then settled by opening the file \
            (see README, "How saves work").
            Exit codes: 0 no problems; 2 errors (in any file); 3 warnings only.
            """
    )

    @Option(name: .long, help: "Password for encrypted files.")
    var password: String?

    @Argument(help: "PDF files to check.")
    var files: [String]

    func run() throws {
        var sawError = false
        var sawWarning = false
        for (index, path) in files.enumerated() {
            if index > 0 { print() }
            print("checking \(path)")
            // Opening settles an interrupted save; say what was found before it is gone.
            if let journal = SaveJournal.pending(for: path) {
                print("WARNING: pending save journal \(SaveJournal.path(for: path)): \(journal)")
                sawWarning = true
            }
            do {
                let document = try PDFDocument(path: path, password: password)
                if let outcome = document.source.settledJournal {
                    print("WARNING: \(outcome)")
                    sawWarning = true
                }
                print("PDF version: \(document.version)")
                print("encrypted: \(document.encryption?.description ?? "no")")
                let report = document.checkStructure()
                print("objects: \(report.objectCount), streams: \(report.streamCount), pages: \(document.pageCount)")
                for warning in report.warnings { print("WARNING: \(warning)") }
                for error in report.errors { print("ERROR: \(error)") }
                if !report.errors.isEmpty {
                    sawError = true
                } else if !report.warnings.isEmpty {
                    sawWarning = true
                } else {
                    print("No structural problems found.")
                }
            } catch {
                print("ERROR: \((error as? PDFError)?.description ?? "\(error)")")
                sawError = true
            }
        }
        if sawError { throw ExitCode(2) }
        if sawWarning { throw ExitCode(3) }
    }
}
