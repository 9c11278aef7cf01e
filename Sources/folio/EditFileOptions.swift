import ArgumentParser

/// Options every command that edits one PDF takes: the file, where the update goes, and
/// the password.
struct EditFileOptions: ParsableArguments {
    @Option(help: "Write to this file instead of updating FILE in place.") var output: String?
    @Option(help: "Password for an encrypted file.") var password: String?
    @Argument(help: "The PDF.") var file: String
}
