import FolioLibrary
import FolioScore
import Foundation

/// Copies of a score to hand out: the member's part with their marks and the shared ones, or a
/// clean part without marks.
extension ScoreService {
    /// Which marks a handout keeps: `mine` (the asking member's layers and the shared ones —
    /// every mark for a musician alone) or `none` (a clean part).
    public enum HandoutMarks: String, Sendable, CaseIterable {
        case mine, none
    }

    /// The score with the marks `marks` keeps, written whole as a new PDF (the file is not
    /// touched), and a name for it: "Clair de Lune – Anna Nováková.pdf", "Clair de Lune – clean.pdf".
    public func handout(score id: Int64, marks: HandoutMarks) throws -> (name: String, bytes: [UInt8]) {
        let member = MemberContext.current
        let seen = MemberLayers.Visibility(for: member, among: member == nil ? [] : try catalog.members())
        let read = try read(score: id) { document, path in
            (((path as NSString).lastPathComponent as NSString).deletingPathExtension,
             try ScoreHandout.bytes(of: document, keeping: marks == .none ? .none : seen.handout(of: document)))
        }
        let whose = marks == .none ? "clean" : member?.name ?? "marked"
        return ("\(read.value.0) – \(whose).pdf", read.value.1)
    }
}
