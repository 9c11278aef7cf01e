import FolioScore
import Foundation

/// What a member of an ensemble does in its library, and so what they may change.
///
/// | right | librarian | conductor | section leader | player |
/// | --- | --- | --- | --- | --- |
/// | ``MemberRight/library``: upload, delete, metadata, contents, parts, setlists | ✓ | | | |
/// | ``MemberRight/members``: add, change and remove members | ✓ | | | |
/// | ``MemberRight/lead``: lead a rehearsal | ✓ | ✓ | ✓ | |
/// | ``MemberRight/markForAll``: marks everyone sees | ✓ | ✓ | | |
/// | ``MemberRight/markForSection``: marks their section sees | ✓ | ✓ | ✓ | |
/// | ``MemberRight/markOwn``: their own marks | ✓ | ✓ | ✓ | ✓ |
/// | ``MemberRight/anyMark``: change or remove anyone's mark | ✓ | | | |
///
/// ```swift
/// MemberRole.player.may(.library)         // false
/// MemberRole.conductor.may(.markForAll)   // true
/// ```
public enum MemberRole: String, Sendable, Hashable, Codable, CaseIterable {
    case librarian
    case conductor
    case sectionLeader = "section-leader"
    case player

    /// The rights the role carries (the table above).
    public var rights: Set<MemberRight> {
        switch self {
        case .librarian: Set(MemberRight.allCases)
        case .conductor: [.lead, .markForAll, .markForSection, .markOwn]
        case .sectionLeader: [.lead, .markForSection, .markOwn]
        case .player: [.markOwn]
        }
    }

    /// Whether the role carries `right`.
    public func may(_ right: MemberRight) -> Bool { rights.contains(right) }

    /// The roles that carry `right`, for a refusal to name ("only the librarian may …").
    public static func holding(_ right: MemberRight) -> [MemberRole] { allCases.filter { $0.may(right) } }

    /// How the role is called in messages ("section leader").
    public var title: String {
        switch self {
        case .librarian: "librarian"
        case .conductor: "conductor"
        case .sectionLeader: "section leader"
        case .player: "player"
        }
    }
}

/// A right a ``MemberRole`` carries.
///
/// ```swift
/// try member.require(.library, to: "delete a score")   // LibraryError(.forbidden) for a player
/// ```
public enum MemberRight: String, Sendable, Hashable, Codable, CaseIterable {
    /// The library itself: uploads, deleting and renaming scores, metadata, contents and
    /// bookmarks, pages, parts, setlists, tracks and stamps.
    case library
    /// Adding, changing and removing members, and their invitations.
    case members
    /// Leading a rehearsal.
    case lead
    /// Marks everyone sees (the conductor's layer).
    case markForAll = "mark-for-all"
    /// Marks the member's section sees.
    case markForSection = "mark-for-section"
    /// The member's own marks.
    case markOwn = "mark-own"
    /// Changing or removing a mark someone else made.
    case anyMark = "any-mark"
}

/// A member of the ensemble as the catalog keeps them (never their password).
///
/// ```swift
/// let anna = try catalog.addMember(MemberSetting(name: "Anna Nováková", role: .player, instrument: "Violin II")).member
/// anna.section   // .strings, from the instrument
/// ```
public struct Member: Sendable, Hashable, Codable {
    public let id: Int64
    /// Their name, as they are shown and as they log in (any script; unique without regard
    /// to case).
    public var name: String
    public var role: MemberRole
    /// The part they play, as a part label reads ("Violin II", "Horn in F 2"), which picks
    /// their part in rehearsals; nil for a conductor or a librarian who plays none.
    public var instrument: String?
    /// Their section: from the instrument unless set.
    public var section: Instrument.Section?
    /// Whether they have set a password (an unused invitation leaves it unset).
    public var hasPassword: Bool
    public var createdAt: Date
    /// Who they are whatever they are called: random, given once by the catalog and never
    /// again, carried by their private layer, their marks and their changes. A new member
    /// with a removed one's name is another person. Not a secret (every mark of theirs carries
    /// it), only never reused; not part of the member's JSON.
    public var key: String

    /// Whether the member's role carries `right`.
    public func may(_ right: MemberRight) -> Bool { role.may(right) }

    /// Whether this member made what `author` and `key` name (a mark's `/T` and its
    /// `/FolioMember`, a change's recorded author and theirs): by ``key`` when the thing
    /// carries one, by name (as ``LibraryCatalog/nameKey(_:)`` tells names apart) only for
    /// what was made before keys were kept.
    public func isAuthor(_ author: String?, key: String? = nil) -> Bool {
        if let key, !key.isEmpty { return key == self.key }
        return author.map(LibraryCatalog.nameKey) == LibraryCatalog.nameKey(name)
    }

    /// Throws ``LibraryError`` `.forbidden` naming who may, when the member's role lacks
    /// `right`; `action` says what was refused ("delete a score").
    public func require(_ right: MemberRight, to action: String) throws {
        guard !may(right) else { return }
        let holders = MemberRole.holding(right).map(\.title)
        let who = holders.count == 1 ? "the \(holders[0])" : holders.dropLast().joined(separator: ", ") + " or " + (holders.last ?? "")
        throw LibraryError(.forbidden, "only \(who) may \(action); \(name) is a \(role.title)")
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, role, instrument, section, hasPassword, createdAt
    }

    public init(id: Int64, name: String, role: MemberRole, instrument: String?, section: Instrument.Section?, hasPassword: Bool, createdAt: Date,
                key: String = "") {
        self.key = key
        self.id = id
        self.name = name
        self.role = role
        self.instrument = instrument
        self.section = section
        self.hasPassword = hasPassword
        self.createdAt = createdAt
    }

    /// Encoded with `createdAt` in ISO 8601, as every date Folio prints.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(role, forKey: .role)
        try container.encodeIfPresent(instrument, forKey: .instrument)
        try container.encodeIfPresent(section, forKey: .section)
        try container.encode(hasPassword, forKey: .hasPassword)
        try container.encode(createdAt.formatted(.iso8601), forKey: .createdAt)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let created = try container.decode(String.self, forKey: .createdAt)
        guard let date = try? Date(created, strategy: .iso8601) else {
            throw DecodingError.dataCorruptedError(forKey: .createdAt, in: container, debugDescription: "not an ISO 8601 date: \(created)")
        }
        self.init(id: try container.decode(Int64.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
                  role: try container.decode(MemberRole.self, forKey: .role),
                  instrument: try container.decodeIfPresent(String.self, forKey: .instrument),
                  section: try container.decodeIfPresent(Instrument.Section.self, forKey: .section),
                  hasPassword: try container.decode(Bool.self, forKey: .hasPassword), createdAt: date)
    }

    /// The layer their own marks go into: "Anna Nováková — Violin II" (the name alone without
    /// an instrument).
    public var layerName: String { instrument.map { "\(name) — \($0)" } ?? name }
}

/// What ``LibraryCatalog/addMember(_:now:)`` and ``LibraryCatalog/setMember(_:_:dryRun:)`` take.
///
/// ```swift
/// var setting = MemberSetting(name: "Jiří", role: .sectionLeader)
/// setting.instrument = "Trumpet in Bb 1"
/// ```
public struct MemberSetting: Sendable, Equatable {
    public var name: String?
    public var role: MemberRole?
    /// A part label; "" clears it.
    public var instrument: String?
    /// A section name (strings, woodwinds, brass, percussion, keyboards, voices, rhythm, in
    /// any language `Instrument.section(named:)` knows); "" clears it (back to the
    /// instrument's).
    public var section: String?

    public init(name: String? = nil, role: MemberRole? = nil, instrument: String? = nil, section: String? = nil) {
        self.name = name
        self.role = role
        self.instrument = instrument
        self.section = section
    }
}
