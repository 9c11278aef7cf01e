import FolioLibrary
import FolioScore
import Foundation

/// What a rehearsal's members send over the socket, as JSON text of at most
/// ``RehearsalMessage/maxBytes`` bytes:
///
/// - the leader: `{"type":"move","score":12,"page":3,"halfway":false,"two":false}` (the
///   score shown and its page; `setlist` and `piece` in performance mode),
///   `{"type":"handover","to":"MEMBER"}`, `{"type":"end"}`;
/// - a follower: `{"type":"detach"}` (looking elsewhere), `{"type":"attach"}` (following
///   again), `{"type":"instrument","instrument":"Violin II"}`.
///
/// ```swift
/// let message = try RehearsalMessage(text: #"{"type":"move","score":12,"page":3}"#)
/// ```
public enum RehearsalMessage: Sendable, Equatable {
    /// The largest message taken, in bytes.
    public static let maxBytes = 4096

    case move(RehearsalPosition)
    case handover(to: String)
    case end
    case detach
    case attach
    case instrument(String?)

    private struct Wire: Decodable {
        var type: String
        var score: Int64?
        var page: Int?
        var halfway: Bool?
        var two: Bool?
        var setlist: String?
        var piece: Int?
        var to: String?
        var instrument: String?
    }

    /// Reads one message; `.invalidValue` naming what is wrong (too long, not JSON, an
    /// unknown type, a missing or out-of-range field).
    public init(text: String) throws(LibraryError) {
        guard text.utf8.count <= Self.maxBytes else {
            throw LibraryError(.tooLarge, "a rehearsal message has at most \(Self.maxBytes) bytes")
        }
        let wire: Wire
        do { wire = try JSONDecoder().decode(Wire.self, from: Data(text.utf8)) } catch {
            throw LibraryError(.invalidArgument, "a rehearsal message is a JSON object with a type")
        }
        switch wire.type {
        case "move":
            guard let score = wire.score, let page = wire.page else {
                throw LibraryError(.invalidArgument, "move needs a score and a page")
            }
            guard (1...100_000).contains(page) else { throw LibraryError(.invalidArgument, "page \(page) is out of range (valid: 1 to 100000)") }
            if let piece = wire.piece, !(1...10_000).contains(piece) {
                throw LibraryError(.invalidArgument, "piece \(piece) is out of range (valid: 1 to 10000)")
            }
            if let setlist = wire.setlist, setlist.count > 200 { throw LibraryError(.invalidArgument, "a setlist name has at most 200 characters") }
            self = .move(RehearsalPosition(score: score, page: page, halfway: wire.halfway ?? false, two: wire.two ?? false,
                                           setlist: wire.setlist, piece: wire.piece))
        case "handover":
            guard let to = wire.to, RehearsalMember.isValidID(to) else { throw LibraryError(.invalidArgument, "handover needs a member id (to)") }
            self = .handover(to: to)
        case "end": self = .end
        case "detach": self = .detach
        case "attach": self = .attach
        case "instrument": self = .instrument(wire.instrument)
        default:
            throw LibraryError(.invalidArgument, "unknown rehearsal message type '\(wire.type.prefix(40))' (valid: move, handover, end, detach, attach, instrument)")
        }
    }
}

/// Where the leader is: the score shown (a catalog id), its page, whether a half turn or
/// two pages are shown, and in performance mode the setlist and its piece (1-based).
///
/// ```swift
/// let position = RehearsalPosition(score: 12, page: 4, halfway: true)
/// ```
public struct RehearsalPosition: Sendable, Equatable, Codable {
    public var score: Int64
    public var page: Int
    public var halfway: Bool
    public var two: Bool
    public var setlist: String?
    public var piece: Int?

    public init(score: Int64, page: Int = 1, halfway: Bool = false, two: Bool = false, setlist: String? = nil, piece: Int? = nil) {
        self.score = score
        self.page = page
        self.halfway = halfway
        self.two = two
        self.setlist = setlist
        self.piece = piece
    }
}

/// A member of a rehearsal as the leader sees them: who, what they play, the file they are
/// shown and how well it serves them (`PartFit`; `full`: they have no part), whether they
/// follow or look elsewhere, and whether their device is connected.
///
/// ```swift
/// members.filter { $0.fit == .full }   // the players without a part
/// ```
public struct RehearsalMember: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    public var instrument: String?
    public var leader: Bool
    public var attached: Bool
    public var connected: Bool
    /// The file shown for the current piece (its path) and how well it serves them.
    public var part: String?
    public var fit: PartFit?

    /// The longest name taken, in characters.
    public static let maxName = 60

    /// Whether `id` can name a member: 8 to 64 letters, digits, `-` or `_` (made by the page).
    public static func isValidID(_ id: String) -> Bool {
        (8...64).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
        }
    }

    /// A member's name checked: 1 to ``maxName`` characters without control characters.
    public static func checkedName(_ name: String) throws(LibraryError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...maxName).contains(trimmed.count),
              !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw LibraryError(.invalidArgument, "a name has 1 to \(maxName) characters without control characters")
        }
        return trimmed
    }
}
