import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio members`: the ensemble that shares the library, and what each may change.
struct MembersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "Add, list, change and remove the members of an ensemble sharing the library.",
        discussion: """
            Roles: librarian (the library itself: uploads, metadata, parts, setlists, members), conductor (leads \
            rehearsals, marks everyone sees), section-leader (leads, marks the section sees), player (their own marks). \
            Once a library has members, folio serve asks each to log in with their name and password. A new member \
            gets an invitation link (/invite/TOKEN on the server's address, valid 7 days, usable once) to set their \
            password; --password-file sets it here instead.
            Examples: folio members add "Anna Nováková" --role player --instrument "Violin II" --library ~/Choir
                      folio members set "Anna Nováková" --role section-leader
            """,
        subcommands: [MembersAddCommand.self, MembersListCommand.self, MembersSetCommand.self, MembersInviteCommand.self,
                      MembersRemoveCommand.self]
    )

    static func run<T>(_ command: String, _ body: () throws -> T) throws -> T {
        try LibraryCommand.run(command, program: "members \(command)", body)
    }

    static func line(_ member: Member) -> String {
        [member.name, member.role.rawValue, member.instrument ?? "-", member.section?.rawValue ?? "-",
         member.hasPassword ? "password set" : "invited"].joined(separator: "\t")
    }

    /// What is printed of an invitation: the path to open on the server, and until when.
    static func invitation(_ invitation: LibraryCatalog.Invitation, for member: Member) -> String {
        "invitation for \(member.name): open /invite/\(invitation.token) on the server's address "
            + "(valid until \(invitation.expiresAt.formatted(.iso8601)), once)"
    }

    /// The first line of `file` as a password (``OptionFile``: the same rule as `folio serve --password-file`).
    static func password(from file: String) throws -> String {
        try OptionFile.firstLine(of: file, option: "--password-file")
    }
}

/// Roles as ArgumentParser takes them.
extension MemberRole: ExpressibleByArgument {}

/// `folio members add`.
struct MembersAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a member and print their invitation link.",
        discussion: """
            NAME is any name (1 to 100 characters, any script; unique regardless of case). --instrument is the part they \
            play as a part label reads ("Violin II", "Horn in F 2"); their section follows from it unless --section says. \
            The first member added must be a librarian. --json prints {"member":{…},"invitation":{"token","expiresAt"}}.
            """)

    @Argument(help: "The member's name.") var name: String
    @Option(help: "librarian, conductor, section-leader or player.") var role: MemberRole = .player
    @Option(help: "The part they play (a part label).") var instrument: String?
    @Option(help: "Their section (strings, woodwinds, brass, percussion, keyboards, voices, rhythm).") var section: String?
    @Option(help: "A file whose first line sets the password now (no invitation is printed).") var passwordFile: String?
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try MembersCommand.run("add") {
            let catalog = try location.catalog(create: false)
            let first = try !catalog.hasMembers()
            if role != .librarian, first {
                throw LibraryError(.invalidArgument, "the first member must be a librarian (--role librarian): someone must manage the others")
            }
            let password = try passwordFile.map(MembersCommand.password)
            if let password { _ = try PasswordHash.checked(password) }
            let added = try catalog.addMember(MemberSetting(name: name, role: role, instrument: instrument, section: section))
            if first {
                // `folio serve` chooses how people get in when it starts: a server already running
                // keeps its token or password (or none, on loopback) until it is started again.
                FileHandle.standardError.write(Data(("the library has members now: start `folio serve` again (if it runs) "
                    + "for them to log in with their own passwords\n").utf8))
            }
            if let password {
                try catalog.setMemberPassword(added.member.name, password: password)
                let member = try catalog.member(named: added.member.name)
                if json { return try printJSONLine(AddedMember(member: member, invitation: nil)) }
                return print("added " + MembersCommand.line(member))
            }
            if json {
                return try printJSONLine(AddedMember(member: added.member, invitation: .init(token: added.invitation.token,
                                                                                              expiresAt: added.invitation.expiresAt)))
            }
            print("added " + MembersCommand.line(added.member))
            print(MembersCommand.invitation(added.invitation, for: added.member))
        }
    }

    struct AddedMember: Encodable {
        struct Link: Encodable {
            let token: String
            let expiresAt: String

            init(token: String, expiresAt: Date) {
                self.token = token
                self.expiresAt = expiresAt.formatted(.iso8601)
            }
        }

        let member: Member
        let invitation: Link?
    }
}

/// `folio members list`.
struct MembersListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the members: name, role, instrument, section, whether their password is set.",
        discussion: "--json prints one member a line: {\"id\",\"name\",\"role\",\"instrument\",\"section\",\"hasPassword\",\"createdAt\"}.")

    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try MembersCommand.run("list") {
            let members = try location.catalog(create: false).members()
            if json { return try printJSONLines(members) }
            if members.isEmpty { print("no members: the library is one musician's (folio members add NAME --role librarian starts an ensemble)") }
            members.map(MembersCommand.line).forEach { print($0) }
        }
    }
}

/// `folio members set`.
struct MembersSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Change a member's name, role, instrument, section or password.",
        discussion: """
            --instrument "" and --section "" clear them. The library's only librarian stays a librarian. A new password \
            ends the member's sessions.
            """)

    @Argument(help: "The member's name.") var name: String
    @Option(help: "A new name.") var rename: String?
    @Option(help: "librarian, conductor, section-leader or player.") var role: MemberRole?
    @Option(help: "The part they play (a part label); \"\" clears it.") var instrument: String?
    @Option(help: "Their section; \"\" goes back to the instrument's.") var section: String?
    @Option(help: "A file whose first line is the new password.") var passwordFile: String?
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Print the member as they would be; change nothing.") var dryRun = false
    @OptionGroup var location: LibraryLocation

    func validate() throws {
        if rename == nil, role == nil, instrument == nil, section == nil, passwordFile == nil {
            throw ValidationError("give --rename, --role, --instrument, --section or --password-file")
        }
    }

    func run() throws {
        try MembersCommand.run("set") {
            let catalog = try location.catalog(create: false)
            let password = try passwordFile.map(MembersCommand.password)
            if let password { _ = try PasswordHash.checked(password) }
            var member = try catalog.setMember(name, MemberSetting(name: rename, role: role, instrument: instrument, section: section),
                                               dryRun: dryRun)
            if let password, !dryRun {
                try catalog.setMemberPassword(member.name, password: password)
                member = try catalog.member(named: member.name)
            }
            if json { return try printJSONLine(member) }
            print((dryRun ? "would read: " : "") + MembersCommand.line(member))
        }
    }
}

/// `folio members invite`.
struct MembersInviteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite", abstract: "A new invitation link for a member (a lost link, a forgotten password).",
        discussion: "Earlier unused links stop working. Using the new one sets the password anew.")

    @Argument(help: "The member's name.") var name: String
    @Flag(help: "Print JSON: {\"token\",\"expiresAt\"}.") var json = false
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try MembersCommand.run("invite") {
            let invited = try location.catalog(create: false).inviteMember(name)
            if json { return try printJSONLine(MembersAddCommand.AddedMember.Link(token: invited.invitation.token, expiresAt: invited.invitation.expiresAt)) }
            print(MembersCommand.invitation(invited.invitation, for: invited.member))
        }
    }
}

/// `folio members remove`.
struct MembersRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a member: their sessions end and their links stop working; their marks stay.",
        discussion: "The library's only librarian is removed last.")

    @Argument(help: "The member's name.") var name: String
    @Flag(help: "Say who would be removed; remove nothing.") var dryRun = false
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try MembersCommand.run("remove") {
            let member = try location.catalog(create: false).removeMember(name, dryRun: dryRun)
            print("\(dryRun ? "would remove" : "removed") \(member.name)")
        }
    }
}
