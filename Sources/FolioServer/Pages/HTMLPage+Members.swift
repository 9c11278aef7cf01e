import FolioLibrary
import FolioScore
import Foundation

extension HTMLPage {
    /// `/login`: a member's name and password; `next` is where to go after.
    static func login(next: String, members: Bool, csrf: String) -> String {
        let body: String
        if members {
            body = """
                <h2>Log in</h2>
                <form id="login" class="login" data-next="\(escape(next))">
                <label><span>Name</span><input name="name" autocomplete="username" required maxlength="100" autofocus></label>
                <label><span>Password</span><input name="password" type="password" autocomplete="current-password" required></label>
                <button type="submit">Log in</button>
                <p id="login-status" class="status" role="status"></p>
                </form>
                <p class="muted">New here? Open the invitation link your librarian gave you.</p>
                """
        } else {
            body = """
                <h2>No one to log in as</h2>
                <p>This library has no members: it opens for whoever has its address (and its token or password).
                A librarian adds members with <code>folio members add</code>.</p>
                <p><a href="/">Go to the library</a></p>
                """
        }
        return shell(title: "Log in — Folio", csrf: csrf,
                     body: "<header class=\"bar\"><a class=\"home\" href=\"/\">Folio</a></header><main class=\"login\">\(body)</main>",
                     scripts: members ? ["/assets/login.js"] : [])
    }

    /// `/invite/{token}`: a new member sets their password once; or why the link no longer works.
    static func invitation(token: String, member: Member?, problem: String?, csrf: String) -> String {
        let body: String
        if let member {
            let part = member.instrument.map { " — \(escape($0))" } ?? ""
            body = """
                <h2>Welcome, \(escape(member.name))</h2>
                <p>You join as \(escape(member.role.title))\(part). Choose your password (at least \(PasswordHash.minLength) characters);
                you log in with your name and it from now on.</p>
                <form id="invitation" class="login" data-token="\(escape(token))">
                <input type="hidden" name="name" autocomplete="username" value="\(escape(member.name))">
                <label><span>Password</span><input name="password" type="password" autocomplete="new-password" required minlength="\(PasswordHash.minLength)" autofocus></label>
                <label><span>Again</span><input name="again" type="password" autocomplete="new-password" required minlength="\(PasswordHash.minLength)"></label>
                <button type="submit">Set my password</button>
                <p id="login-status" class="status" role="status"></p>
                </form>
                """
        } else {
            body = """
                <h2>This invitation does not work</h2>
                <p>\(escape(problem ?? "no such invitation"))</p>
                <p><a href="/login">Log in</a> if you have set your password already.</p>
                """
        }
        return shell(title: "Invitation — Folio", csrf: csrf,
                     body: "<header class=\"bar\"><a class=\"home\" href=\"/\">Folio</a></header><main class=\"login\">\(body)</main>",
                     scripts: member == nil ? [] : ["/assets/login.js"])
    }

    /// `/parts/mine`: a player's part of every piece that has parts, each a link to the score.
    static func myParts(instrument: String?, parts: [PlayerPart], csrf: String) -> String {
        let fits: [PartFit: String] = [.part: "your part", .instrument: "your instrument's", .section: "your section's", .full: "the full score"]
        let items = parts.map { mine in
            "<li><a href=\"/scores/\(mine.choice.part.id)\">\(escape(mine.song))</a> "
                + "<span class=\"muted\">\(escape(mine.choice.part.label?.written ?? "score")) · \(fits[mine.choice.fit] ?? "")</span></li>"
        }.joined()
        let heading = instrument.map { "My parts — \(escape($0))" } ?? "Full scores"
        let body = """
            <header class="bar"><a class="home" href="/">Folio</a><h1>\(heading)</h1><span id="who" class="who"></span></header>
            <main class="members">
            <form class="member-form" method="get" action="/parts/mine">
            <label><span>Instrument</span><input name="instrument" maxlength="100" value="\(escape(instrument ?? ""))"
              placeholder="Violin II, Horn in F 2…"></label>
            <button type="submit">Show</button>
            </form>
            <ul id="my-parts" class="my-parts">\(items.isEmpty ? "<li class=\"muted empty\">No pieces with parts yet.</li>" : items)</ul>
            </main>
            """
        return shell(title: "My parts — Folio", csrf: csrf, body: body, scripts: ["/assets/myparts.js"])
    }

    /// `/members`: the librarian's page — every member, adding one with an invitation link
    /// and its QR code, changing a role or part, a new link, removing.
    static func members(csrf: String) -> String {
        let roles = MemberRole.allCases.map { "<option value=\"\($0.rawValue)\"\($0 == .player ? " selected" : "")>\(escape($0.title))</option>" }
            .joined()
        let body = """
            <header class="bar"><a class="home" href="/">Folio</a><h1>Members</h1><span id="who" class="who"></span></header>
            <main class="members">
            <section>
            <h2>Add a member</h2>
            <form id="add-member" class="member-form">
            <label><span>Name</span><input name="name" required maxlength="100"></label>
            <label><span>Role</span><select name="role">\(roles)</select></label>
            <label><span>Instrument</span><input name="instrument" maxlength="100" placeholder="Violin II, Horn in F 2…"></label>
            <button type="submit">Add and make an invitation</button>
            </form>
            <div id="invitation-link" class="invitation" hidden></div>
            <p id="members-status" class="status" role="status"></p>
            </section>
            <section>
            <h2>The ensemble</h2>
            <table id="member-list"><thead><tr><th>Name</th><th>Role</th><th>Instrument</th><th>Section</th><th>Password</th><th></th></tr></thead>
            <tbody></tbody></table>
            </section>
            </main>
            """
        return shell(title: "Members — Folio", csrf: csrf, body: body, scripts: ["/assets/members.js"])
    }
}
