import FolioScore
import Foundation

/// Where members' marks go and who sees them: each mark in an optional content group (a PDF
/// layer every standard viewer can show or hide) named after whose it is.
///
/// | who marks | the layer | seen in Folio by |
/// | --- | --- | --- |
/// | a player | their own: "Anna Nováková — Violin II" | them (and the librarian) |
/// | a section leader | their section's: "Strings — section" | that section's members, the conductor |
/// | a conductor | "李雷 — conductor" | everyone |
/// | the librarian | none (the score's own marks) | everyone |
///
/// Marks in no member's layer (the score's own, forScore's "Fingerings") are everyone's. Hidden
/// is not secret: the PDF holds every layer, and any viewer may show it.
///
/// ```swift
/// MemberLayers.layer(for: anna)                              // "Anna Nováková — Violin II"
/// MemberLayers.hidden(for: boris, among: catalog.members())   // ["Anna Nováková — Violin II", …]
/// ```
public enum MemberLayers {
    /// The layer a member's new marks go into; nil for the librarian (the score's own marks).
    public static func layer(for member: Member) -> String? {
        switch member.role {
        case .librarian: nil
        case .conductor: "\(member.name) — conductor"
        case .sectionLeader: member.section.map(sectionLayer) ?? member.layerName
        case .player: member.layerName
        }
    }

    /// A section's layer: "Strings — section".
    public static func sectionLayer(_ section: Instrument.Section) -> String {
        section.rawValue.prefix(1).uppercased() + section.rawValue.dropFirst() + " — section"
    }

    /// The layers `member` does not see in Folio: the other players' own, and the sections'
    /// other than theirs (a conductor sees every section's). Nothing for the librarian.
    public static func hidden(for member: Member, among members: [Member]) -> Set<String> {
        guard member.role != .librarian else { return [] }
        var hidden = Set(members.filter { $0.id != member.id }.compactMap { other -> String? in
            guard other.role == .player || (other.role == .sectionLeader && other.section == nil) else { return nil }
            return other.layerName
        })
        if member.role != .conductor {
            hidden.formUnion(Instrument.Section.allCases.filter { $0 != member.section }.map(sectionLayer))
        }
        if let own = layer(for: member) { hidden.remove(own) }
        return hidden
    }
}
