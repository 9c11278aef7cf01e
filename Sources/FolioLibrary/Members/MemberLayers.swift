import FolioPDF
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
/// A layer that is one member's own carries their ``Member/key`` (`/FolioMember` in the group's
/// dictionary), and so does every mark a member makes: the layer is found by the key, not by its
/// name, so a new name, instrument or role keeps it theirs and private; a removed member's
/// layer stays theirs (the librarian sees it, no one inherits it); a new member with an old
/// name gets a layer of their own ("Boris — Viola (2)" when the name is in the file already).
/// Layers made before keys were kept are told by name, as they were.
///
/// Marks in no member's layer (the score's own, forScore's "Fingerings") are everyone's. Hidden
/// is not secret: the PDF holds every layer, and any viewer may show it.
///
/// ```swift
/// MemberLayers.layer(for: anna)?.name                        // "Anna Nováková — Violin II"
/// let seen = MemberLayers.Visibility(for: boris, among: try catalog.members())
/// seen.hides(MarkLayer.all(in: document).first)               // true for Anna's layer
/// ```
public enum MemberLayers {
    /// The key of a member's own layer's dictionary, and of each mark a member makes, that
    /// holds their ``Member/key``.
    public static let memberEntry = "FolioMember"

    /// Where a member's new marks go: the layer's name, and for a layer that is theirs alone
    /// the key that makes it so.
    public struct Layer: Sendable, Equatable {
        public let name: String
        /// The ``Member/key`` of the member whose own layer it is; nil for a shared one.
        public let owner: String?

        /// The entries that find the layer (an owned layer), for `AnnotationRequest.layerEntries`.
        public var entries: [String: String] { owner.map { [MemberLayers.memberEntry: $0] } ?? [:] }
    }

    /// The layer a member's new marks go into; nil for the librarian (the score's own marks).
    public static func layer(for member: Member) -> Layer? {
        let own = Layer(name: member.layerName, owner: member.key.isEmpty ? nil : member.key)
        switch member.role {
        case .librarian: return nil
        case .conductor: return Layer(name: "\(member.name) — conductor", owner: nil)
        case .sectionLeader: return member.section.map { Layer(name: sectionLayer($0), owner: nil) } ?? own
        case .player: return own
        }
    }

    /// A section's layer: "Strings — section".
    public static func sectionLayer(_ section: Instrument.Section) -> String {
        section.rawValue.prefix(1).uppercased() + section.rawValue.dropFirst() + " — section"
    }

    /// The layers `member` does not see in Folio, by name: the other players' own as they are
    /// called now (what layers made before keys were kept are known by), and the sections'
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
        if let own = layer(for: member) { hidden.remove(own.name) }
        return hidden
    }

    /// What one member does not see of others' marks: a layer that is someone else's own (by
    /// its key, whatever it is called), and by name the layers ``hidden(for:among:)`` lists.
    /// A musician alone and the librarian see everything.
    ///
    /// ```swift
    /// let seen = MemberLayers.Visibility(for: MemberContext.current, among: try catalog.members())
    /// let shown = MarkLayer.all(in: document).filter { !seen.hides($0) }
    /// ```
    public struct Visibility: Sendable {
        public let viewer: Member?
        /// The layers hidden by name (layers without a key).
        public let names: Set<String>

        public init(for viewer: Member?, among members: [Member]) {
            self.viewer = viewer
            names = viewer.map { MemberLayers.hidden(for: $0, among: members) } ?? []
        }

        /// Whether the viewer does not see marks in `layer` (nil: in no layer, seen by all).
        public func hides(_ layer: MarkLayer?) -> Bool {
            guard let viewer, viewer.role != .librarian, let layer else { return false }
            if let owner = layer.entries[MemberLayers.memberEntry], !owner.isEmpty { return owner != viewer.key }
            return names.contains(layer.name)
        }

        /// The names of `document`'s layers the viewer does not see (each layer of a file has a
        /// name of its own when Folio made it), for the browser's layer menu.
        public func hiddenNames(in document: PDFDocument) -> [String] {
            hiddenNames(among: MarkLayer.all(in: document))
        }

        /// The names of `layers` (a file's, as `MarkLayer.all(in:)` read them) the viewer does
        /// not see, sorted.
        public func hiddenNames(among layers: [MarkLayer]) -> [String] {
            layers.filter(hides).map(\.name).sorted()
        }

        /// The marks a copy of `document` handed to the viewer keeps: all but those in the
        /// layers they do not see.
        public func handout(of document: PDFDocument) -> ScoreHandout.Marks {
            .exceptGroups(Set(MarkLayer.all(in: document).filter(hides).map(\.group)))
        }
    }
}
