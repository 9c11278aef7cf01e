import ArgumentParser

/// A command that reads any number of files named last on its command line, as a shell's
/// wildcard gives them: `folio info Scores/*.pdf`. Every name it is given is a file.
///
/// ```
/// folio annot list --json Sborník/*.pdf
/// ```
protocol FileListCommand: ParsableCommand {
    var files: [String] { get set }
}

extension InfoCommand: FileListCommand {}
extension CheckCommand: FileListCommand {}
extension MetaGetCommand: FileListCommand {}
extension TocShowCommand: FileListCommand {}
extension BookmarksListCommand: FileListCommand {}
extension AnnotListCommand: FileListCommand {}

/// The command line parsed with its long list of file names set aside.
///
/// ArgumentParser merges each positional value into what it has parsed so far, which costs
/// time in the square of their number: 700 names took 20 ms, 2,800 took 215 ms, and a folder
/// of 10,000 scores seconds. When the line ends in more than 64 words (no leading `-`), the
/// line up to the second of them is parsed as usual; if that is a ``FileListCommand`` whose
/// files end with that word, every later word would have been a file too, so they are
/// appended and the command is validated again. Anything else — another command, a word that
/// was an option's value, an error — is parsed whole, as ArgumentParser parses it.
///
/// ```swift
/// var command = try await LongFileList.parseAsRoot(["info", "--json"] + names)
/// ```
enum LongFileList {
    /// Words at the end of a line from which the split pays.
    static let threshold = 64

    static func parseAsRoot(_ arguments: [String]) async throws -> ParsableCommand {
        var start = arguments.count
        while start > 0, !arguments[start - 1].hasPrefix("-") { start -= 1 }
        // The first trailing word may be an option's value; the second is then a file.
        let kept = start + 2
        guard arguments.count - kept >= threshold else { return try await Folio.asyncParseAsRoot(arguments) }
        let head = Array(arguments[..<kept])
        if var command = try? await Folio.asyncParseAsRoot(head) as? any FileListCommand,
           command.files.last == head.last {
            command.files += arguments[kept...]
            if (try? command.validate()) != nil { return command }
        }
        return try await Folio.asyncParseAsRoot(arguments)
    }
}
