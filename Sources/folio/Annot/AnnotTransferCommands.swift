import ArgumentParser
import FolioScore
import Foundation

/// `folio annot flatten`.
struct AnnotFlattenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flatten",
        abstract: "Draw annotations into the page content and remove them (incremental update); prints their ids.",
        discussion: """
            For apps that hide annotations: every visible markup annotation with an appearance stream becomes part \
            of the page (links, widgets, hidden ones and ones without an appearance stay annotations).
            Example: folio annot flatten part.pdf --page 2 --output part-flat.pdf
            Exit codes: 0 saved; 1 the file could not be read, written or annotated (untouched); 64 page out of \
            range (untouched).
            """
    )

    @OptionGroup var options: EditFileOptions
    @Option(parsing: .unconditional, help: "Only this page (1-based).") var page: Int?

    func validate() throws {
        if let page, page < 1 { throw ValidationError("--page \(page) is out of range (valid: 1 or more)") }
    }

    func run() throws {
        let flattened = try AnnotCommand.edit("flatten", options) { try AnnotationFlattening.apply(to: $0, page: page) }
        for id in flattened { print(id) }
    }
}

/// `folio annot export`.
struct AnnotExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a PDF's markup annotations as JSON, for `folio annot import` into another copy.",
        discussion: """
            {"format":"folio-annotations","version":1,"annotations":[{"page","subtype","rect",...}]}: coordinates \
            in PDF user space, colours "#rrggbb", musical stamps by symbol. Links and widgets are not exported.
            Example: folio annot export teacher.pdf > marks.json
            Exit codes: 0 written; 1 the file could not be read.
            """
    )

    @Option(help: "Password for an encrypted file.") var password: String?
    @Argument(help: "The PDF.") var file: String

    func run() throws {
        do {
            let data = try AnnotationTransfer.export(from: try ScoreFile(file, password: password).open())
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } catch {
            printError("folio annot export: \(file): \(CommandError.describe(error))")
            throw ExitCode(1)
        }
    }
}

/// `folio annot import`.
struct AnnotImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the annotations of a `folio annot export` file to PDFs (incremental updates); prints new ids.",
        discussion: """
            Each annotation is written anew with its appearance stream; one whose name (/NM) is already on its page \
            is left out, so importing twice adds nothing. Kinds Folio does not write are reported and skipped. \
            With several files (the parts of a section, copies of a score), each gets the annotations in its own \
            save and the new ids are printed as FILE<tab>ID; a file that fails does not stop the rest. --dry-run \
            counts what each file would get.
            Example: folio annot import student.pdf --from marks.json
            Exit codes: 0 saved; 1 a file could not be read, written or annotated (untouched); 64 invalid \
            annotation file, or a page out of range in a file (untouched).
            """
    )

    @Option(help: "Write to this file instead of updating FILE in place (one FILE only).") var output: String?
    @Option(help: "Password for encrypted files.") var password: String?
    @Option(help: "The annotation file (JSON from `folio annot export`).") var from: String
    @Argument(help: "The PDFs.") var files: [String]
    @OptionGroup var saving: SaveFlags
    @Flag(help: "Add the annotations in memory and print what would be added; write nothing.") var dryRun = false

    func validate() throws {
        if output != nil && files.count != 1 { throw ValidationError("--output takes exactly one FILE") }
    }

    func run() throws {
        let exchange: AnnotationTransfer.Document
        do {
            let size = (try? FileManager.default.attributesOfItem(atPath: from)[.size] as? Int) ?? 0
            guard size <= AnnotationTransfer.maxBytes else {
                throw ScoreError(.outOfRange, "\(from) is \(size) bytes (valid: up to \(AnnotationTransfer.maxBytes))")
            }
            exchange = try AnnotationTransfer.read(try Data(contentsOf: URL(fileURLWithPath: from)))
        } catch {
            printError("folio annot import: \(from): \(CommandError.describe(error))")
            throw ExitCode.validationFailure
        }
        var failure: ExitCode?
        for file in files {
            do {
                let report = try EditFileOptions.update("annot import", file: file, output: output, password: password,
                                                        saving: saving, dryRun: dryRun) { try AnnotationTransfer.apply(exchange, to: $0) }
                if dryRun {
                    print("\(file): would add \(report.added.count) annotation\(report.added.count == 1 ? "" : "s")")
                } else {
                    for id in report.added { print(files.count > 1 ? "\(file)\t\(id)" : id) }
                }
                for reason in report.skipped { printError("folio annot import: \(file): skipped \(reason)") }
                if report.present > 0 {
                    printError("folio annot import: \(file): \(report.present) already present, left as they are")
                }
            } catch let code as ExitCode {
                // An invalid value in any file outranks an I/O failure in another.
                if failure != .validationFailure { failure = code }
            }
        }
        if let failure { throw failure }
    }
}
