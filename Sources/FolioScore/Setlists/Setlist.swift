/// A named, ordered list of what a musician plays: scores, bookmarks (a page range of a
/// score) and placeholders (a title with no file yet), as forScore keeps them.
///
/// ```swift
/// let gig = Setlist(title: "Friday", entries: [
///     SetlistEntry(kind: .score, title: "Autumn Leaves", path: "Autumn Leaves.pdf"),
///     SetlistEntry(kind: .placeholder, title: "Encore"),
/// ])
/// ```
public struct Setlist: Sendable, Equatable, Codable {
    public var title: String
    /// The folder of setlists it is filed in ("Gigs/2026"); nil at the top.
    public var folder: String?
    public var entries: [SetlistEntry]

    public init(title: String, folder: String? = nil, entries: [SetlistEntry] = []) {
        self.title = title
        self.folder = folder
        self.entries = entries
    }

    private enum CodingKeys: String, CodingKey { case title, folder, entries }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        if let folder { try container.encode(folder, forKey: .folder) }
        try container.encode(entries, forKey: .entries)
    }

    /// Checks a setlist or folder name: not empty, no control characters, at most 500 characters.
    public static func checkName(_ name: String, what: String = "setlist name") throws {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ScoreError(.invalidValue, "a \(what) cannot be empty")
        }
        guard name.count <= 500 else {
            throw ScoreError(.outOfRange, "a \(what) of \(name.count) characters is too long (valid: 1 to 500)")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ScoreError(.invalidValue, "a \(what) cannot contain control characters")
        }
    }
}

/// One entry of a ``Setlist``. `path` is relative to the library (nil for a placeholder);
/// `start` and `end` are a bookmark's 1-based pages (nil otherwise); `note` is the musician's
/// word on it for the set ("attacca", "capo 2", "from bar 17"), nil when there is none.
///
/// ```swift
/// let entry = SetlistEntry(kind: .bookmark, title: "Habanera", path: "Bizet - Carmen.pdf", start: 12, end: 15)
/// ```
public struct SetlistEntry: Sendable, Equatable, Codable {
    /// What an entry names: a whole score, a bookmark's pages, or music not in the library.
    ///
    /// ```swift
    /// let encore = SetlistEntry(kind: .placeholder, title: "Přídavek")
    /// ```
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case score, bookmark, placeholder
    }

    public var kind: Kind
    public var title: String
    public var path: String?
    public var start: Int?
    public var end: Int?
    public var note: String?

    /// The longest note an entry keeps, in characters.
    public static let maxNote = 500

    public init(kind: Kind, title: String, path: String? = nil, start: Int? = nil, end: Int? = nil, note: String? = nil) {
        self.kind = kind
        self.title = title
        self.path = kind == .placeholder ? nil : path
        self.start = kind == .bookmark ? start : nil
        self.end = kind == .bookmark ? end : nil
        self.note = note
    }

    /// A note as kept: white space around it trimmed, nil when nothing is left; refused with
    /// control characters (a line break included: a note is one line) or over ``maxNote``.
    ///
    /// ```swift
    /// try SetlistEntry.checkNote("  attacca ")   // "attacca"
    /// ```
    public static func checkNote(_ note: String?) throws -> String? {
        guard let trimmed = note?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= maxNote else {
            throw ScoreError(.outOfRange, "a note of \(trimmed.count) characters is too long (valid: up to \(maxNote))")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ScoreError(.invalidValue, "a note is one line, without control characters")
        }
        return trimmed
    }

    private enum CodingKeys: String, CodingKey { case kind, title, path, start, end, note }

    /// Every key is written, null included, so a reader sees one shape for every kind.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(title, forKey: .title)
        try container.encode(path, forKey: .path)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(note, forKey: .note)
    }
}
