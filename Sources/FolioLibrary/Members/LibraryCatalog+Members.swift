import FolioScore
import Foundation

/// An ensemble's members: who they are, what their role lets them change, how they log in.
/// Each operation here is the one `folio members` and the server both call. Passwords are kept
/// as scrypt hashes (``PasswordHash``); invitations and sessions only as the SHA-256 of their
/// token (``SecretToken``), so a copy of the catalog neither logs anyone in nor opens an
/// invitation.
///
/// ```swift
/// let catalog = try LibraryCatalog(folder: "/scores")
/// let added = try catalog.addMember(MemberSetting(name: "Anna Nováková", role: .player, instrument: "Violin II"))
/// print("/invite/\(added.invitation.token)")
/// let session = try catalog.redeemInvitation(added.invitation.token, password: "housle a smyčec")
/// try catalog.member(session: session.token)?.name   // "Anna Nováková"
/// ```
extension LibraryCatalog {
    /// A one-time invitation: the token for the link, and until when it may be used.
    public struct Invitation: Sendable, Equatable {
        public let token: String
        public let expiresAt: Date
    }

    /// A login session: the token for the cookie, and when it ends.
    public struct Session: Sendable, Equatable {
        public let token: String
        public let member: Member
        public let expiresAt: Date
    }

    /// How long an invitation and a session last, and how many sessions a member keeps (the
    /// oldest go first: a lost phone's session ends as new ones are made).
    public static let invitationLifetime: TimeInterval = 7 * 86_400
    public static let sessionLifetime: TimeInterval = 30 * 86_400
    public static let sessionsPerMember = 20
    /// Members in one library: an ensemble, not a city.
    public static let maxMembers = 1_000

    /// Every member, by name.
    public func members() throws -> [Member] {
        try storeRead { db in try db.rows("SELECT * FROM member").map(Self.member) }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }

    /// The member with catalog id `id`, or `.notFound`.
    public func member(id: Int64) throws -> Member {
        try storeRead { db in try Self.member(id: id, in: db) }
    }

    /// Whether the library has members (and so the server asks each to log in).
    public func hasMembers() throws -> Bool {
        try storeRead { db in try Self.count(in: db) } > 0
    }

    /// The member named `name` (case and accents of the name's form as the catalog compares
    /// them), or `.notFound`.
    public func member(named name: String) throws -> Member {
        try storeRead { db in try Self.member(named: name, in: db) }
    }

    /// Adds a member with an invitation to set their password; `.taken` when the name is,
    /// `.invalidArgument` for a name, role, instrument or section out of form.
    public func addMember(_ setting: MemberSetting, now: Date = Date()) throws -> (member: Member, invitation: Invitation) {
        try MemberContext.current?.require(.members, to: "add members")
        guard let name = setting.name else { throw LibraryError(.invalidArgument, "a member needs a name") }
        let role = setting.role ?? .player
        let checkedName = try Self.checkedName(name)
        let (instrument, section) = try Self.checkedPart(instrument: setting.instrument, section: setting.section, keeping: (nil, nil))
        return try storeWrite { db in
            guard try Self.count(in: db) < Self.maxMembers else {
                throw LibraryError(.tooLarge, "a library has at most \(Self.maxMembers) members")
            }
            try Self.refuseTaken(checkedName, in: db)
            let id = try db.insertRow("""
                INSERT INTO member (name, nameKey, role, instrument, section, createdAt, key)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [checkedName, Self.nameKey(checkedName), role.rawValue, instrument, section?.rawValue,
                      now.timeIntervalSince1970, Self.newMemberKey()])
            let invitation = try Self.invite(member: id, in: db, now: now)
            return (try Self.member(id: id, in: db), invitation)
        }
    }

    /// Changes a member's name, role, instrument or section (what `setting` gives). The last
    /// librarian cannot become another role: someone must be able to manage the members.
    /// With `dryRun`, the member as they would be, nothing stored.
    @discardableResult
    public func setMember(_ name: String, _ setting: MemberSetting, dryRun: Bool = false) throws -> Member {
        try MemberContext.current?.require(.members, to: "change members")
        let newName = try setting.name.map(Self.checkedName)
        return try storeWrite(rollingBack: dryRun) { db in
            let member = try Self.member(named: name, in: db)
            if let role = setting.role, member.role == .librarian, role != .librarian, try Self.librarians(in: db) == 1 {
                throw Self.onlyLibrarian(member)
            }
            if let newName, Self.nameKey(newName) != Self.nameKey(member.name) { try Self.refuseTaken(newName, in: db) }
            let stored: String? = try db.scalar("SELECT section FROM member WHERE id = ?", [member.id])
            let (instrument, section) = try Self.checkedPart(instrument: setting.instrument, section: setting.section,
                                                             keeping: (member.instrument, stored.flatMap(Instrument.Section.init(rawValue:))))
            try db.execute("UPDATE member SET name = ?, nameKey = ?, role = ?, instrument = ?, section = ? WHERE id = ?",
                           [newName ?? member.name, Self.nameKey(newName ?? member.name), (setting.role ?? member.role).rawValue,
                            instrument, section?.rawValue, member.id])
            return try Self.member(id: member.id, in: db)
        }
    }

    /// Removes a member, their sessions and invitations (their marks stay in the scores, in
    /// their layer: no one inherits it, not a new member of the same name). The last
    /// librarian cannot be removed. With `dryRun`, the member who would be, nothing removed.
    @discardableResult
    public func removeMember(_ name: String, dryRun: Bool = false) throws -> Member {
        try MemberContext.current?.require(.members, to: "remove members")
        return try storeWrite(rollingBack: dryRun) { db in
            let member = try Self.member(named: name, in: db)
            if member.role == .librarian, try Self.librarians(in: db) == 1, try Self.count(in: db) > 1 {
                throw Self.onlyLibrarian(member)
            }
            try db.execute("DELETE FROM member_session WHERE member = ?", [member.id])
            try db.execute("DELETE FROM member_invitation WHERE member = ?", [member.id])
            try db.execute("DELETE FROM member WHERE id = ?", [member.id])
            return member
        }
    }

    /// A new invitation for `name` (a lost link, a forgotten password): earlier unused ones
    /// stop working. Using it sets the password anew and ends the member's sessions.
    public func inviteMember(_ name: String, now: Date = Date()) throws -> (member: Member, invitation: Invitation) {
        try MemberContext.current?.require(.members, to: "invite members")
        return try storeWrite { db in
            let member = try Self.member(named: name, in: db)
            return (member, try Self.invite(member: member.id, in: db, now: now))
        }
    }

    /// The member an unused, unexpired invitation is for; `.forbidden` when it was used or
    /// has expired, `.notFound` when there is no such invitation.
    public func invitedMember(_ token: String, now: Date = Date()) throws -> Member {
        try storeRead { db in try Self.invitation(token, in: db, now: now) }
    }

    /// Sets the invited member's password, uses the invitation up, ends their other sessions
    /// and opens one. An invitation works once.
    /// The invitation is looked up before the password is hashed: a made-up or spent token
    /// costs a lookup, never scrypt's tenth of a second and 32 MiB.
    public func redeemInvitation(_ token: String, password: String, now: Date = Date()) throws -> Session {
        _ = try invitedMember(token, now: now)
        let hash = try PasswordHash.make(password)
        return try storeWrite { db in
            let member = try Self.invitation(token, in: db, now: now)
            try db.execute("UPDATE member_invitation SET usedAt = ? WHERE digest = ?", [now.timeIntervalSince1970, SecretToken.digest(token)])
            try db.execute("UPDATE member SET password = ? WHERE id = ?", [hash, member.id])
            try db.execute("DELETE FROM member_session WHERE member = ?", [member.id])
            return try Self.openSession(for: try Self.member(id: member.id, in: db), in: db, now: now)
        }
    }

    /// Sets a member's password directly (the command line's `--password-file`), ending
    /// their sessions.
    public func setMemberPassword(_ name: String, password: String) throws {
        let hash = try PasswordHash.make(password)
        try storeWrite { db in
            let member = try Self.member(named: name, in: db)
            try db.execute("UPDATE member SET password = ? WHERE id = ?", [hash, member.id])
            try db.execute("DELETE FROM member_session WHERE member = ?", [member.id])
            try db.execute("DELETE FROM member_invitation WHERE member = ? AND usedAt IS NULL", [member.id])
        }
    }

    /// A session for `name` when `password` is theirs; nil otherwise (no such member, no
    /// password set, a wrong one): a caller counts that as a failed guess. The password is
    /// checked outside the catalog's lock (scrypt takes a tenth of a second).
    public func logIn(name: String, password: String, now: Date = Date()) throws -> Session? {
        let found = try storeRead { db in try db.row("SELECT id, password FROM member WHERE nameKey = ?", [Self.nameKey(name)]) }
        guard let found, let stored: String = found.optional("password"), let id: Int64 = found.optional("id") else {
            // As long as a right guess takes: a wrong name is not told from a wrong password by time.
            _ = PasswordHash.verify(password, stored: Self.decoy)
            return nil
        }
        guard PasswordHash.verify(password, stored: stored) else { return nil }
        return try storeWrite { db in try Self.openSession(for: try Self.member(id: id, in: db), in: db, now: now) }
    }

    /// The member a session token belongs to, while it lasts; nil for anything else.
    public func member(session token: String, now: Date = Date()) throws -> Member? {
        guard SecretToken.isWellFormed(token) else { return nil }
        return try storeRead { db in
            guard let row = try db.row("""
                SELECT m.* FROM member_session s JOIN member m ON m.id = s.member WHERE s.digest = ? AND s.expiresAt > ?
                """, [SecretToken.digest(token), now.timeIntervalSince1970]) else { return nil }
            return try Self.member(row)
        }
    }

    /// Ends a session (logging out); nothing when it is not one.
    public func endSession(_ token: String) throws {
        guard SecretToken.isWellFormed(token) else { return }
        try storeWrite { db in try db.execute("DELETE FROM member_session WHERE digest = ?", [SecretToken.digest(token)]) }
    }

    // MARK: - In the database

    /// A stored hash no password matches, verified when the name is unknown so that a wrong
    /// name costs what a wrong password does.
    private static let decoy = "scrypt$15$8$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="

    static func member(_ row: CatalogRow) throws -> Member {
        let instrument: String? = row.optional("instrument")
        let stored: String? = row.optional("section")
        let section = stored.flatMap(Instrument.Section.init(rawValue:)) ?? instrument.flatMap { PartLabel($0)?.section }
        return Member(id: try row.value("id"), name: try row.value("name"), role: MemberRole(rawValue: try row.value("role")) ?? .player,
                      instrument: instrument, section: section, hasPassword: (row.optional("password") as String?) != nil,
                      createdAt: Date(timeIntervalSince1970: try row.value("createdAt")), key: row.optional("key") ?? "")
    }

    /// A member's key: 16 random bytes in lower-case hex, as v16 gave the members before it.
    static func newMemberKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    private static func member(id: Int64, in db: some CatalogStatements) throws -> Member {
        guard let row = try db.row("SELECT * FROM member WHERE id = ?", [id]) else {
            throw LibraryError(.notFound, "no member \(id)")
        }
        return try member(row)
    }

    private static func member(named name: String, in db: some CatalogStatements) throws -> Member {
        guard let row = try db.row("SELECT * FROM member WHERE nameKey = ?", [nameKey(name)]) else {
            throw LibraryError(.notFound, "no member called \(name)")
        }
        return try member(row)
    }

    private static func librarians(in db: some CatalogStatements) throws -> Int {
        try db.scalar("SELECT COUNT(*) FROM member WHERE role = ?", [MemberRole.librarian.rawValue]) ?? 0
    }

    private static func count(in db: some CatalogStatements) throws -> Int {
        try db.scalar("SELECT COUNT(*) FROM member") ?? 0
    }

    /// `.taken` when another member is called `name` (as names are told apart).
    private static func refuseTaken(_ name: String, in db: some CatalogStatements) throws {
        if let taken: String = try db.scalar("SELECT name FROM member WHERE nameKey = ?", [nameKey(name)]) {
            throw LibraryError(.taken, "a member is already called \(taken)")
        }
    }

    /// Why the library's only librarian can be neither demoted nor removed.
    private static func onlyLibrarian(_ member: Member) -> LibraryError {
        LibraryError(.conflict, "\(member.name) is the library's only librarian; make someone else librarian first")
    }

    private static func invite(member id: Int64, in db: some CatalogStatements, now: Date) throws -> Invitation {
        try db.execute("DELETE FROM member_invitation WHERE member = ? AND usedAt IS NULL", [id])
        let token = SecretToken.make(), expires = now.addingTimeInterval(invitationLifetime)
        try db.execute("INSERT INTO member_invitation (digest, member, expiresAt) VALUES (?, ?, ?)",
                       [SecretToken.digest(token), id, expires.timeIntervalSince1970])
        return Invitation(token: token, expiresAt: expires)
    }

    private static func invitation(_ token: String, in db: some CatalogStatements, now: Date) throws -> Member {
        guard SecretToken.isWellFormed(token),
              let row = try db.row("SELECT member, expiresAt, usedAt FROM member_invitation WHERE digest = ?", [SecretToken.digest(token)]) else {
            throw LibraryError(.notFound, "no such invitation; ask the librarian for a new link")
        }
        if (row.optional("usedAt") as Double?) != nil {
            throw LibraryError(.forbidden, "this invitation was used already; ask the librarian for a new link")
        }
        if (try row.value("expiresAt") as Double) <= now.timeIntervalSince1970 {
            throw LibraryError(.forbidden, "this invitation has expired; ask the librarian for a new link")
        }
        return try member(id: try row.value("member"), in: db)
    }

    private static func openSession(for member: Member, in db: some CatalogStatements, now: Date) throws -> Session {
        let token = SecretToken.make(), expires = now.addingTimeInterval(sessionLifetime)
        try db.execute("DELETE FROM member_session WHERE expiresAt <= ?", [now.timeIntervalSince1970])
        try db.execute("""
            DELETE FROM member_session WHERE member = ? AND digest NOT IN
                (SELECT digest FROM member_session WHERE member = ? ORDER BY createdAt DESC LIMIT ?)
            """, [member.id, member.id, sessionsPerMember - 1])
        try db.execute("INSERT INTO member_session (digest, member, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                       [SecretToken.digest(token), member.id, now.timeIntervalSince1970, expires.timeIntervalSince1970])
        return Session(token: token, member: member, expiresAt: expires)
    }

    /// A name as members are told apart: NFC, case folded, white space trimmed.
    ///
    /// ```swift
    /// LibraryCatalog.nameKey(" ANNA Nováková") == LibraryCatalog.nameKey("anna nováková")   // true
    /// ```
    public static func nameKey(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
            .folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }

    /// The most bytes (UTF-8) a member's name takes: room for 100 characters of any script
    /// with their accents, not for one letter carrying thousands.
    public static let maxNameBytes = 400

    /// Names: any script, under the rule file names keep (``CatalogPath/refusal(ofFileName:)``:
    /// no control, direction or invisible characters), no word mixing Latin, Greek and
    /// Cyrillic letters that look alike (``CatalogPath/mixedScriptWord(_:)``), 1 to 100
    /// characters and at most ``maxNameBytes`` bytes besides the white space around them.
    static func checkedName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard (1...100).contains(trimmed.count), trimmed.utf8.count <= maxNameBytes else {
            throw LibraryError(.invalidArgument, "a member's name has 1 to 100 characters and at most \(maxNameBytes) bytes "
                + "(this one has \(trimmed.count) and \(trimmed.utf8.count))")
        }
        if let refusal = CatalogPath.refusal(trimmed, advice: "choose a name without it") {
            throw LibraryError(.invalidArgument, "a member's name: " + refusal)
        }
        if let word = CatalogPath.mixedScriptWord(trimmed) {
            throw LibraryError(.invalidArgument, "a member's name mixes Latin, Greek or Cyrillic letters in one word (\(word)), "
                + "which can make it look like another member's; type it in one script")
        }
        return trimmed
    }

    /// The instrument and section to store: "" clears, nil keeps `keeping`'s.
    private static func checkedPart(instrument: String?, section: String?,
                                    keeping: (String?, Instrument.Section?)) throws -> (String?, Instrument.Section?) {
        var result = keeping
        if let instrument {
            let trimmed = instrument.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty {
                result.0 = nil
            } else {
                guard trimmed.count <= PartLabel.maxLength,
                      !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    throw LibraryError(.invalidArgument, "an instrument has 1 to \(PartLabel.maxLength) characters and no control characters")
                }
                result.0 = trimmed
            }
        }
        if let section {
            let trimmed = section.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty {
                result.1 = nil
            } else {
                guard let known = Instrument.Section(rawValue: trimmed.lowercased()) ?? Instrument.section(named: trimmed) else {
                    let names = Instrument.Section.allCases.map(\.rawValue).joined(separator: ", ")
                    throw LibraryError(.invalidArgument, "\(trimmed) is no section (valid: \(names), in any language Folio knows)")
                }
                result.1 = known
            }
        }
        return result
    }
}
