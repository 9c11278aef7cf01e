import FolioPDF
import Foundation

/// The member on whose behalf the current task changes the library: set by the server for a
/// request of a logged-in member, nil for the command line and for a musician alone (who may
/// do everything). The edit path reads it to check rights, to name the author of a change,
/// and to keep marks their own.
///
/// ```swift
/// try MemberContext.$current.withValue(anna) {
///     try catalog.edit(score: "Rusalka.pdf", expected: tag, change: "Added a text", right: .markOwn) { … }
/// }
/// ```
public enum MemberContext {
    @TaskLocal public static var current: Member?

    /// Throws `.forbidden` when a member is acting and may not touch the mark `id` of
    /// `document`: only its maker or a role with ``MemberRight/anyMark`` may. The maker is read
    /// from the mark itself (``isOwn(_:)``). A mark that is not there is left for the change
    /// itself to report.
    public static func requireOwnMark(_ id: String, in document: PDFDocument) throws {
        guard let member = current, !member.may(.anyMark),
              let (_, mark) = try? document.locateAnnotation(id: id) else { return }
        guard !isOwn(mark) else { return }
        let owner = mark.author.map { "\($0)’s" } ?? "a mark without an author; it is the library’s"
        throw LibraryError(.forbidden, "only the librarian may change or remove another’s mark (this one is \(owner)); \(member.name) is a \(member.role.title)")
    }

    /// Whether the member acting made `mark` (true when no member acts): by the key the mark
    /// carries (`/FolioMember`, ``MemberLayers/memberEntry``), by its author's name (`/T`) only
    /// for a mark made before keys were kept.
    public static func isOwn(_ mark: PDFAnnotation) -> Bool {
        guard let member = current else { return true }
        let key = mark.dictionary[MemberLayers.memberEntry]?.stringValue?.text
        return member.isAuthor(mark.author, key: key)
    }
}
