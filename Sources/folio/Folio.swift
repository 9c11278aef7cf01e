import ArgumentParser

/// The `folio` command: tools for sheet-music PDF collections.
@main
struct Folio: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folio",
        abstract: "Read and tag sheet-music PDFs.",
        discussion: """
            Exit codes: 0 success; 1 at least one file could not be read or written; 64 usage error, \
            a value out of range or a malformed input file (nothing touched). See docs/saves.md, "Exit codes".
            """,
        version: "0.1.0",
        subcommands: [InfoCommand.self, CheckCommand.self, RewriteCommand.self, SetInfoCommand.self, MetaCommand.self,
                      TocCommand.self, BookmarksCommand.self, AnnotCommand.self, LibraryCommand.self,
                      LintCommand.self, LinksCommand.self, SetlistCommand.self, TracksCommand.self, PartsCommand.self,
                      Import4SBCommand.self, Import4SCCommand.self, Export4SCCommand.self,
                      MergeCommand.self, SplitCommand.self, PagesCommand.self, MakeCommand.self, AddCommand.self, ServeCommand.self,
                      UndoCommand.self, MembersCommand.self]
    )

    /// As ArgumentParser's own entry point, with a long list of files set aside while the
    /// rest of the line is parsed (see ``LongFileList``).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // An unknown command word ("folio libary list") is named before anything else. Naming
        // every command costs a start-up a third of a millisecond, so it is weighed only for a
        // line that asks for help (which ArgumentParser answers with the root's) or does not parse.
        func refuseUnknownCommand() {
            if let suggestion = CommandSuggestion.message(for: arguments, root: Folio.self) {
                printError(suggestion)
                exit(withError: ExitCode.validationFailure)
            }
        }
        if arguments.contains(where: { ["-h", "--help", "-help", "help"].contains($0) }) { refuseUnknownCommand() }
        var command: ParsableCommand
        do {
            command = try await LongFileList.parseAsRoot(arguments)
        } catch {
            refuseUnknownCommand()
            // A line that does not parse: an unknown option or a stray argument is named first.
            if exitCode(for: error) != .success, let usage = UsageCheck.message(for: arguments, root: Folio.self) {
                printError(usage)
                exit(withError: ExitCode.validationFailure)
            }
            // Any other usage error in the one style of every error: "folio COMMAND: what", where to look.
            if exitCode(for: error) == .validationFailure {
                let name = UsageCheck.commandName(for: arguments, root: Folio.self)
                printError("\(name): \(message(for: error)) (\(name) --help shows its options)")
                exit(withError: ExitCode.validationFailure)
            }
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            exit(withError: code)   // reported already
        } catch where !CommandError.isOurs(error) {
            exit(withError: error)   // ArgumentParser's own (help asked for, a clean exit)
        } catch {
            // What a command threw without reporting it (a check of its options after parsing):
            // the same one style, the exit code by the one mapping.
            printError("\(UsageCheck.commandName(for: arguments, root: Folio.self)): \(CommandError.describe(error))")
            exit(withError: CommandError.exitCode(for: error))
        }
    }
}
