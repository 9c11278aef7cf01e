import FolioLibrary
import FolioPDF
@testable import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// A library with members, as an ensemble uses it over HTTP: logging in (and nothing without
/// it), each role's rights on the routes that change things, marks that are their author's
/// own (checked by pikepdf, the file byte-identical after each refusal), invitations that
/// work once, logging out, and guesses against one member from many addresses throttled.
final class ServerMembersTests: ServerTestCase, @unchecked Sendable {
    private let passwords = ["Zoë Král": "knihovnice 2026", "李雷": "指揮者のパスワード", "Anna Nováková": "housle a smyčec",
                             "Борис": "альт и смычок", "Jiří": "první housle", "Hans": "Trompete in B"]

    private func membersServer(configure: (inout LibraryServer.Options) -> Void = { _ in }) throws -> LibraryServer {
        let server = try fixture.server(access: .members, configure: configure)
        let catalog = server.service.catalog
        for (name, role, instrument) in [("Zoë Král", MemberRole.librarian, nil), ("李雷", .conductor, nil),
                                         ("Anna Nováková", .player, "Violin II"), ("Борис", .player, "Viola"),
                                         ("Jiří", .sectionLeader, "Violin I"), ("Hans", .player, "Trumpet in Bb")] {
            _ = try catalog.addMember(MemberSetting(name: name, role: role, instrument: instrument))
            try catalog.setMemberPassword(name, password: passwords[name] ?? "")
        }
        return server
    }

    /// Wrong guesses slowed by milliseconds (not seconds) and banned after `banAfter`; the
    /// loopback peer is a trusted proxy, so `X-Forwarded-For` names each test's clients.
    private static func quickThrottle(_ options: inout LibraryServer.Options, banAfter: Int) {
        options.trustedProxies = ["127.0.0.1"]
        options.loginPolicy.firstDelay = .milliseconds(1)
        options.loginPolicy.maxDelay = .milliseconds(2)
        options.loginPolicy.banAfter = banAfter
    }

    private func expect<T: Equatable>(_ value: @autoclosure () async throws -> T, _ expected: T, _ message: String = "",
                                      file: StaticString = #filePath, line: UInt = #line) async throws {
        let actual = try await value()
        XCTAssertEqual(actual, expected, message, file: file, line: line)
    }

    private func expect<T: Equatable>(not value: @autoclosure () async throws -> T, _ unexpected: T,
                                      file: StaticString = #filePath, line: UInt = #line) async throws {
        let actual = try await value()
        XCTAssertNotEqual(actual, unexpected, file: file, line: line)
    }

    private func expectTrue(_ value: @autoclosure () async throws -> Bool, file: StaticString = #filePath, line: UInt = #line) async throws {
        let actual = try await value()
        XCTAssertTrue(actual, file: file, line: line)
    }

    /// The CSRF token from the login page, with its cookie.
    private func csrf(_ client: some TestClientProtocol) async throws -> HTTPFields {
        let page = try await client.execute(uri: "/login", method: .get)
        XCTAssertEqual(page.status, .ok)
        let html = String(buffer: page.body)
        let range = try XCTUnwrap(html.range(of: #"name="folio-csrf" content="([0-9a-f]+)""#, options: .regularExpression))
        let token = String(html[range].split(separator: "\"")[3])
        return [HTTPField.Name("X-Folio-CSRF")!: token, .cookie: "folio_csrf=\(token)", .contentType: "application/json"]
    }

    /// Headers of `name` logged in: the CSRF token and both cookies.
    private func logIn(_ client: some TestClientProtocol, _ name: String) async throws -> HTTPFields {
        var headers = try await csrf(client)
        let password = passwords.first { $0.key.lowercased() == name.lowercased() }?.value ?? ""
        let body = try JSONSerialization.data(withJSONObject: ["name": name, "password": password])
        let answer = try await client.execute(uri: "/api/session", method: .post, headers: headers, body: ByteBuffer(bytes: body))
        XCTAssertEqual(answer.status, .ok, String(buffer: answer.body))
        let cookie = try XCTUnwrap(answer.headers[.setCookie])
        XCTAssertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie)
        let session = try XCTUnwrap(cookie.split(separator: ";").first)
        headers[.cookie] = (headers[.cookie] ?? "") + "; " + session
        return headers
    }

    private func tag(_ client: some TestClientProtocol, _ id: Int64, _ headers: HTTPFields) async throws -> String {
        let listed = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .get, headers: headers)
        return try XCTUnwrap(listed.headers[.eTag])
    }

    private func mark(_ client: some TestClientProtocol, _ id: Int64, _ headers: HTTPFields, text: String) async throws -> String {
        var headers = headers
        headers[.ifMatch] = try await tag(client, id, headers)
        let body = #"{"type":"freetext","page":1,"rect":[40,40,200,24],"text":"\#(text)"}"#
        let added = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .post, headers: headers, body: ByteBuffer(string: body))
        XCTAssertEqual(added.status, .created, String(buffer: added.body))
        return try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(buffer: added.body)) as? [String: Any])?["id"] as? String)
    }

    private func send(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ headers: HTTPFields, versionOf id: Int64? = nil,
                      _ body: String? = nil) async throws -> TestResponse {
        var headers = headers
        if let id { headers[.ifMatch] = try await tag(client, id, headers) }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    func testEachRoleMayWhatItsRightsSayAndMarksAreTheirAuthorsOwn() async throws {
        let server = try membersServer()
        let path = fixture.path("Brahms-Cancion_de_Cuna.pdf")
        try await server.application(logger: .init(label: "test")).test(.live) { client in
            // Nothing without logging in, but the login page and what it loads.
            try await self.expect(try await client.execute(uri: "/api/scores", method: .get).status, .unauthorized)
            let home = try await client.execute(uri: "/scores/1?str%C3%A1nka=2", method: .get)
            XCTAssertEqual(home.status, .seeOther)
            XCTAssertEqual(home.headers[.location], "/login?next=/scores/1%3Fstr%25C3%25A1nka%3D2")
            try await self.expect(try await client.execute(uri: "/assets/login.js", method: .get).status, .ok)
            try await self.expect(try await client.execute(uri: "/assets/library.js", method: .get).status, .seeOther)
            let wrong = try await client.execute(uri: "/api/session", method: .post, headers: try await self.csrf(client),
                                                 body: ByteBuffer(string: #"{"name":"Anna Nováková","password":"not hers at all"}"#))
            XCTAssertEqual(wrong.status, .unauthorized)

            let anna = try await self.logIn(client, "anna nováková"), boris = try await self.logIn(client, "Борис")
            let li = try await self.logIn(client, "李雷"), zoe = try await self.logIn(client, "Zoë Král")
            let who = try await client.execute(uri: "/api/session", method: .get, headers: anna)
            let session = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: who.body)) as? [String: Any])
            XCTAssertEqual(session["rights"] as? [String], ["mark-own"])
            XCTAssertEqual((session["member"] as? [String: Any])?["name"] as? String, "Anna Nováková")
            let scores = try await client.execute(uri: "/api/scores?q=cuna", method: .get, headers: anna)
            let score = try XCTUnwrap(try ServerFixture.decode(ServerFixture.Scores.self, scores).scores.first).id

            // Anna's mark is hers: /T is her name whatever the server's author is.
            let hers = try await self.mark(client, score, anna, text: "smyčcem dolů")
            let authors = try ServerFixture.python("""
                import pikepdf, sys
                pdf = pikepdf.open(sys.argv[1])
                print("|".join(str(a.get("/T", "")) for a in pdf.pages[0].get("/Annots", [])))
                """, path)
            XCTAssertTrue(authors.contains("Anna Nováková"), authors)
            // Boris may neither move nor remove it, nor may the conductor: 403, the file byte-identical.
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for (headers, method, body) in [(boris, HTTPRequest.Method.delete, nil as String?), (boris, .patch, #"{"text":"mine now"}"#),
                                            (li, .delete, nil)] {
                let refused = try await self.send(client, method, "/api/scores/\(score)/annotations/\(hers)", headers, versionOf: score, body)
                XCTAssertEqual(refused.status, .forbidden, String(buffer: refused.body))
                XCTAssertTrue(String(buffer: refused.body).contains("Anna Nováková’s"), String(buffer: refused.body))
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
            // Boris's own mark he may change; Anna may edit hers.
            let his = try await self.mark(client, score, boris, text: "альт: тише")
            try await self.expect(try await self.send(client, .patch, "/api/scores/\(score)/annotations/\(his)", boris, versionOf: score,
                                               #"{"text":"альт: ещё тише"}"#).status, .noContent)
            // Undo: only one's own last change.
            let undoneByAnna = try await self.send(client, .post, "/api/scores/\(score)/undo", anna, versionOf: score)
            XCTAssertEqual(undoneByAnna.status, .forbidden, "the last change is Boris's")
            try await self.expect(try await self.send(client, .post, "/api/scores/\(score)/undo", boris, versionOf: score).status, .ok)

            // The library's changes: refused to players and the conductor alike, the file untouched.
            let untouched = try Data(contentsOf: URL(fileURLWithPath: path))
            for headers in [anna, li] {
                let metadata = try await self.send(client, .put, "/api/scores/\(score)/metadata", headers, versionOf: score, #"{"title":"Moje"}"#)
                XCTAssertEqual(metadata.status, .forbidden)
                XCTAssertTrue(String(buffer: metadata.body).contains("only the librarian may"), String(buffer: metadata.body))
                try await self.expect(try await self.send(client, .post, "/api/setlists", headers, #"{"name":"Moje"}"#).status, .forbidden)
                try await self.expect(try await self.send(client, .post, "/api/uploads?name=x.pdf", headers, "%PDF-1.4").status, .forbidden)
                try await self.expect(try await self.send(client, .post, "/api/members", headers, #"{"name":"Eve"}"#).status, .forbidden)
                try await self.expect(try await client.execute(uri: "/api/members", method: .get, headers: headers).status, .forbidden)
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), untouched)
            // Leading a rehearsal: the conductor may, a player may not.
            try await self.expect(try await self.send(client, .post, "/api/rehearsals", anna, "{}").status, .forbidden)
            try await self.expect(not: try await self.send(client, .post, "/api/rehearsals", li, "{}").status, .forbidden)
            // The librarian may remove anyone's mark and change the library.
            try await self.expect(try await self.send(client, .delete, "/api/scores/\(score)/annotations/\(hers)", zoe, versionOf: score).status, .noContent)
            try await self.expect(try await self.send(client, .post, "/api/setlists", zoe, #"{"name":"Koncert – 音楽会"}"#).status, .created)
            let changes = try server.service.catalog.changes(score: "Brahms-Cancion_de_Cuna.pdf").map { $0.author ?? "" }
            XCTAssertEqual(changes.first, "Zoë Král", "the history names who made each change")
            XCTAssertTrue(changes.contains("Anna Nováková"), "\(changes)")

            // The history by member: the librarian's to read.
            let history = try await client.execute(uri: "/api/scores/\(score)/changes?member=anna%20nov%C3%A1kov%C3%A1", method: .get, headers: zoe)
            let listed = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(buffer: history.body)) as? [String: Any])?["changes"] as? [[String: Any]])
            XCTAssertFalse(listed.isEmpty)
            XCTAssertEqual(Set(listed.compactMap { $0["author"] as? String }), ["Anna Nováková"])
            try await self.expect(try await client.execute(uri: "/api/scores/\(score)/changes", method: .get, headers: anna).status, .forbidden)

            // Logging out ends the session.
            try await self.expect(try await self.send(client, .delete, "/api/session", anna).status, .noContent)
            try await self.expect(try await client.execute(uri: "/api/scores", method: .get, headers: anna).status, .unauthorized)
        }
    }

    /// Each member's marks go into their layer (pikepdf reads the /OC), each member is listed
    /// the marks the layers' rules let them see, MuPDF hides a mark when its layer is off, and
    /// "my part" and "clean part" are copies without others' own marks, or without any.
    func testMarksGoIntoLayersSeenAsTheRolesSayAndHandedOutAsParts() async throws {
        let server = try membersServer()
        let path = fixture.path("Brahms-Cancion_de_Cuna.pdf")
        try await server.application(logger: .init(label: "test")).test(.live) { client in
            var who: [String: HTTPFields] = [:]
            for name in ["Anna Nováková", "Борис", "李雷", "Jiří", "Hans", "Zoë Král"] { who[name] = try await self.logIn(client, name) }
            let scores = try await client.execute(uri: "/api/scores?q=cuna", method: .get, headers: who["Hans"] ?? [:])
            let score = try XCTUnwrap(try ServerFixture.decode(ServerFixture.Scores.self, scores).scores.first).id
            for (name, text) in [("Anna Nováková", "A – smyčcem"), ("Борис", "B – альт"), ("李雷", "C – 指揮"), ("Jiří", "S – sekce")] {
                _ = try await self.mark(client, score, who[name] ?? [:], text: text)
            }
            // In the file: each mark in its layer.
            let layers = try ServerFixture.python("""
                import pikepdf, sys
                pdf = pikepdf.open(sys.argv[1])
                print("|".join(sorted(f"{a.Contents}={a.OC.Name}" for a in pdf.pages[0].Annots if a.get("/Subtype") == "/FreeText")))
                """, path)
            XCTAssertEqual(layers, "A – smyčcem=Anna Nováková — Violin II|B – альт=Борис — Viola|C – 指揮=李雷 — conductor|S – sekce=Strings — section")
            // Listed as the rules say.
            func seen(_ name: String) async throws -> [String] {
                let listed = try await client.execute(uri: "/api/scores/\(score)/annotations?page=1", method: .get, headers: who[name] ?? [:])
                let marks = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(buffer: listed.body)) as? [String: Any])?["annotations"] as? [[String: Any]])
                return marks.compactMap { $0["contents"] as? String }.map { String($0.prefix(1)) }.sorted()
            }
            try await self.expect(try await seen("Anna Nováková"), ["A", "C", "S"])
            try await self.expect(try await seen("Борис"), ["B", "C", "S"])
            try await self.expect(try await seen("Jiří"), ["C", "S"])
            try await self.expect(try await seen("Hans"), ["C"])
            try await self.expect(try await seen("李雷"), ["C", "S"])
            try await self.expect(try await seen("Zoë Král"), ["A", "B", "C", "S"])
            let session = try await client.execute(uri: "/api/session", method: .get, headers: who["Hans"] ?? [:])
            let hidden = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(buffer: session.body)) as? [String: Any])?["hiddenLayers"] as? [String])
            XCTAssertTrue(hidden.contains("Anna Nováková — Violin II") && hidden.contains("Strings — section") && !hidden.contains("李雷 — conductor"), "\(hidden)")
            // MuPDF (PyMuPDF) draws Anna's mark with her layer on, and not once it is off in the
            // file's default configuration (as a viewer's layer panel turns it off; pikepdf writes it).
            let mupdf = try ServerFixture.python("""
                import pikepdf, pymupdf, sys
                on = pymupdf.open(sys.argv[1])[0].get_pixmap(dpi=50).samples
                pdf = pikepdf.open(sys.argv[1])
                anna = [g for g in pdf.Root.OCProperties.OCGs if str(g.Name) == "Anna Nováková — Violin II"]
                pdf.Root.OCProperties.D.OFF = pikepdf.Array(anna)
                pdf.save(sys.argv[1] + ".off.pdf")
                off = pymupdf.open(sys.argv[1] + ".off.pdf")[0].get_pixmap(dpi=50).samples
                print(len(anna), on != off)
                """, path)
            XCTAssertEqual(mupdf, "1 True")
            // Anna's part and a clean part: copies; the file untouched.
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for (marks, expected) in [("mine", "A|C|S"), ("none", "")] {
                let copy = try await client.execute(uri: "/api/scores/\(score)/handout?marks=\(marks)", method: .get, headers: who["Anna Nováková"] ?? [:])
                XCTAssertEqual(copy.status, .ok)
                XCTAssertTrue(copy.headers[.contentDisposition]?.contains(marks == "none" ? "clean" : "Anna") == true, "\(copy.headers)")
                let file = self.fixture.path("handout-\(marks).pdf")
                try Data(buffer: copy.body).write(to: URL(fileURLWithPath: file))
                let texts = try ServerFixture.python("""
                    import pikepdf, subprocess, sys
                    assert subprocess.run(["qpdf", "--check", sys.argv[1]], capture_output=True).returncode == 0
                    pdf = pikepdf.open(sys.argv[1])
                    print("|".join(sorted(str(a.Contents)[0] for p in pdf.pages for a in p.get("/Annots", []) if a.get("/Subtype") == "/FreeText")))
                    """, file)
                XCTAssertEqual(texts, expected, marks)
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
            try await self.expect(try await client.execute(uri: "/api/scores/\(score)/handout?marks=all", method: .get, headers: who["Hans"] ?? [:]).status,
                                  .badRequest)
        }
    }

    /// "My parts": each member's instrument picks their part of every piece, in any script.
    /// A page's marks are kept per version of the file and handed out as a lookup, yet never
    /// past the layers or the version: asked for again with its tag, a view unchanged is 304;
    /// another member's tag is never 304 to a member who sees less; a mark saved (or the file
    /// rewritten by another program) is listed at once, from another connection; and the
    /// tag a member was listed (a view's) is a version their edits may name.
    func testAPagesMarksAreKeptPerVersionAndNeverShownPastTheLayersOrTheVersion() async throws {
        let server = try membersServer()
        let path = fixture.path("Brahms-Cancion_de_Cuna.pdf")
        let listings = server.service.markListings
        try await server.application(logger: .init(label: "test")).test(.live) { client in
            var who: [String: HTTPFields] = [:]
            for name in ["Anna Nováková", "Hans", "Zoë Král"] { who[name] = try await self.logIn(client, name) }
            let scores = try await client.execute(uri: "/api/scores?q=cuna", method: .get, headers: who["Hans"] ?? [:])
            let score = try XCTUnwrap(try ServerFixture.decode(ServerFixture.Scores.self, scores).scores.first).id
            func page(_ name: String, ifNoneMatch: String? = nil) async throws -> (status: HTTPResponse.Status, tag: String, texts: [String], body: Int) {
                var headers = who[name] ?? [:]
                if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
                let listed = try await client.execute(uri: "/api/scores/\(score)/annotations?page=1", method: .get, headers: headers)
                let tag = try XCTUnwrap(listed.headers[.eTag])
                XCTAssertEqual(listed.headers[.cacheControl], "private, no-cache")
                guard listed.status == .ok else { return (listed.status, tag, [], listed.body.readableBytes) }
                let marks = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(buffer: listed.body)) as? [String: Any])?["annotations"] as? [[String: Any]])
                return (listed.status, tag, marks.compactMap { $0["contents"] as? String }.sorted(), listed.body.readableBytes)
            }
            _ = try await self.mark(client, score, who["Anna Nováková"] ?? [:], text: "A – smyčcem")
            let anna = try await page("Anna Nováková"), hans = try await page("Hans")
            XCTAssertEqual(anna.texts, ["A – smyčcem"])
            XCTAssertEqual(hans.texts, [], "Hans is not shown Anna's own mark")
            XCTAssertNotEqual(anna.tag, hans.tag, "two views of one version have two tags")
            XCTAssertGreaterThan(listings.count, 0, "the page's marks are kept")
            // Hans's own tag: 304 and nothing else. Anna's: the whole answer, still without her mark.
            let again = try await page("Hans", ifNoneMatch: hans.tag)
            XCTAssertEqual(again.status, .notModified)
            XCTAssertEqual(again.body, 0)
            XCTAssertEqual(again.tag, hans.tag)
            let borrowed = try await page("Hans", ifNoneMatch: anna.tag)
            XCTAssertEqual(borrowed.status, .ok, "another member's view is never 304")
            XCTAssertEqual(borrowed.texts, [])
            // A mark saved: listed at once, to whoever asks, with a new tag; the old tag is not 304.
            var annas = who["Anna Nováková"] ?? [:]
            annas[.ifMatch] = anna.tag
            let added = try await client.execute(uri: "/api/scores/\(score)/annotations", method: .post, headers: annas,
                                                 body: ByteBuffer(string: #"{"type":"freetext","page":1,"rect":[40,90,200,24],"text":"B – dolce"}"#))
            XCTAssertEqual(added.status, .created, String(buffer: added.body))
            let seenByAnna = try await page("Anna Nováková", ifNoneMatch: anna.tag)
            XCTAssertEqual(seenByAnna.status, .ok)
            XCTAssertEqual(seenByAnna.texts, ["A – smyčcem", "B – dolce"])
            let seenByHans = try await page("Hans", ifNoneMatch: hans.tag)
            XCTAssertEqual(seenByHans.status, .ok)
            XCTAssertNotEqual(seenByHans.tag, hans.tag)
            XCTAssertEqual(seenByHans.texts, [])
            // Hans's listed tag names a view (the layers he does not see); his edit may name it.
            XCTAssertTrue(seenByHans.tag.contains(";v="), seenByHans.tag)
            var hanses = who["Hans"] ?? [:]
            hanses[.ifMatch] = seenByHans.tag
            let his = try await client.execute(uri: "/api/scores/\(score)/annotations", method: .post, headers: hanses,
                                               body: ByteBuffer(string: #"{"type":"freetext","page":1,"rect":[40,140,200,24],"text":"H – Trompete"}"#))
            XCTAssertEqual(his.status, .created, String(buffer: his.body))
            hanses[.ifMatch] = seenByHans.tag   // now stale: refused, never lost
            let stale = try await client.execute(uri: "/api/scores/\(score)/annotations", method: .post, headers: hanses,
                                                 body: ByteBuffer(string: #"{"type":"freetext","page":1,"rect":[40,190,200,24],"text":"H – znovu"}"#))
            XCTAssertEqual(stale.status, .conflict)
            // The file rewritten by another program: its marks as pikepdf reads them, at once.
            let librarian = try await page("Zoë Král")
            XCTAssertEqual(librarian.texts, ["A – smyčcem", "B – dolce", "H – Trompete"])
            let left = try ServerFixture.python("""
                import os, pikepdf, sys
                pdf = pikepdf.open(sys.argv[1])
                annots = pdf.pages[0].Annots
                keep = [a for a in annots if str(a.get("/Contents", "")) != "B – dolce"]
                pdf.pages[0].Annots = pikepdf.Array(keep)
                pdf.save(sys.argv[1] + ".new")
                pdf.close()
                os.replace(sys.argv[1] + ".new", sys.argv[1])
                again = pikepdf.open(sys.argv[1])
                print("|".join(sorted(str(a.Contents) for a in again.pages[0].Annots if a.get("/Subtype") == "/FreeText")))
                """, path)
            XCTAssertEqual(left, "A – smyčcem|H – Trompete")
            let rewritten = try await page("Zoë Král", ifNoneMatch: librarian.tag)
            XCTAssertEqual(rewritten.status, .ok)
            XCTAssertEqual(rewritten.texts.joined(separator: "|"), left)
        }
    }

    /// The kept pages are bounded by pages and by marks, the least lately asked for going
    /// first; a page of more marks than the bound is read, never kept.
    func testKeptMarksAreBoundedAndTheLeastLatelyAskedForGoFirst() throws {
        let listings = MarkListings(pages: 2, marks: 5)
        let path = fixture.path("Brahms-Cancion_de_Cuna.pdf")
        let version = try XCTUnwrap(FileVersion.tag(of: path))
        func listing(_ count: Int) -> MarkListings.Listing {
            let marks = (0..<count).map { index in
                MarkListings.Mark(annotation: ScoreService.Annotation(id: "m\(index)", page: 1, subtype: "FreeText", rect: [0, 0, 1, 1]), layer: nil)
            }
            return MarkListings.Listing(marks: marks, layers: [])
        }
        var reads = 0
        func ask(_ page: Int, _ count: Int) throws -> Int {
            try listings.page(page, of: path, version: version) { reads += 1; return listing(count) }.marks.count
        }
        XCTAssertEqual(try ask(1, 2), 2)
        XCTAssertEqual(try ask(2, 2), 2)
        XCTAssertEqual(try ask(1, 2), 2)   // kept: not read again, and now the latest
        XCTAssertEqual(reads, 2)
        XCTAssertEqual(try ask(3, 2), 2)   // a third page: page 2, asked for least lately, goes
        XCTAssertEqual(listings.count, 2)
        XCTAssertEqual(try ask(1, 2), 2)
        XCTAssertEqual(reads, 3)
        XCTAssertEqual(try ask(2, 2), 2)
        XCTAssertEqual(reads, 4)
        XCTAssertEqual(try ask(4, 6), 6)   // more marks than the bound: read, not kept
        XCTAssertEqual(try ask(4, 6), 6)
        XCTAssertEqual(reads, 6)
        XCTAssertLessThanOrEqual(listings.count, 2)
        // Another version of the file: read anew (a version not the file's own is never kept).
        XCTAssertEqual(try listings.page(1, of: path, version: "\"0-0\"") { reads += 1; return listing(1) }.marks.count, 1)
        XCTAssertEqual(reads, 7)
        XCTAssertEqual(try listings.page(1, of: path, version: "\"0-0\"") { reads += 1; return listing(1) }.marks.count, 1)
        XCTAssertEqual(reads, 8)
    }

    func testMyPartsFollowTheMembersInstrument() async throws {
        for name in ["Wiegenlied - Violin II.pdf", "Wiegenlied - Альт.pdf", "Wiegenlied (Partitur).pdf"] {
            try FileManager.default.copyItem(atPath: fixture.path("Brahms-Cancion_de_Cuna.pdf"), toPath: fixture.path(name))
        }
        let server = try membersServer()
        try await server.application(logger: .init(label: "test")).test(.live) { client in
            func mine(_ name: String, _ query: String = "") async throws -> [String] {
                let answer = try await client.execute(uri: "/api/parts/mine\(query)", method: .get, headers: try await self.logIn(client, name))
                let parts = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(buffer: answer.body)) as? [String: Any])?["parts"] as? [[String: Any]])
                return parts.compactMap { mine in
                    let choice = mine["choice"] as? [String: Any]
                    return ((choice?["part"] as? [String: Any])?["path"] as? String).map { "\($0)=\(choice?["fit"] as? String ?? "")" }
                }
            }
            try await self.expect(try await mine("Anna Nováková"), ["Wiegenlied - Violin II.pdf=part"])
            try await self.expect(try await mine("Борис"), ["Wiegenlied - Альт.pdf=part"])
            try await self.expect(try await mine("Hans"), ["Wiegenlied (Partitur).pdf=full"])
            try await self.expect(try await mine("Hans", "?instrument=Viola"), ["Wiegenlied - Альт.pdf=part"])
            let page = try await client.execute(uri: "/parts/mine", method: .get, headers: try await self.logIn(client, "Jiří"))
            XCTAssertTrue(String(buffer: page.body).contains("My parts — Violin I"), String(buffer: page.body))
            XCTAssertTrue(String(buffer: page.body).contains("Partitur · the full score"), "a first violin is not served the seconds' part")
        }
    }

    /// The librarian lists a score's changes by member and takes back one player's earlier
    /// mark; the marks after it stay; another player may not, and the file is untouched then.
    func testTheLibrarianTakesBackOneMembersEarlierMarkAndKeepsTheRest() async throws {
        let server = try membersServer()
        let path = fixture.path("Brahms-Cancion_de_Cuna.pdf")
        try await server.application(logger: .init(label: "test")).test(.live) { client in
            var who: [String: HTTPFields] = [:]
            for name in ["Anna Nováková", "Борис", "李雷", "Zoë Král"] { who[name] = try await self.logIn(client, name) }
            let scores = try await client.execute(uri: "/api/scores?q=cuna", method: .get, headers: who["Zoë Král"] ?? [:])
            let score = try XCTUnwrap(try ServerFixture.decode(ServerFixture.Scores.self, scores).scores.first).id
            for (name, text) in [("Anna Nováková", "A – smyčcem"), ("Борис", "B – альт"), ("Anna Nováková", "A2 – 弓"), ("李雷", "C – 指揮")] {
                _ = try await self.mark(client, score, who[name] ?? [:], text: text)
            }
            func history(_ member: String) async throws -> [[String: Any]] {
                let answer = try await client.execute(uri: "/api/scores/\(score)/changes?member=\(member)", method: .get, headers: who["Zoë Král"] ?? [:])
                XCTAssertEqual(answer.status, .ok, String(buffer: answer.body))
                return try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(buffer: answer.body)) as? [String: Any])?["changes"] as? [[String: Any]])
            }
            let annas = try await history("anna%20nova%CC%81kova%CC%81")
            XCTAssertEqual(annas.count, 2, "\(annas)")
            let first = try XCTUnwrap(annas.last?["id"] as? Int)
            let takeBack = "/api/scores/\(score)/changes/\(first)/undo"
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            try await self.expect(try await self.send(client, .post, takeBack, who["Борис"] ?? [:], versionOf: score).status, .forbidden)
            try await self.expect(try await self.send(client, .post, takeBack, who["Zoë Král"] ?? [:]).status, .preconditionRequired)
            try await self.expect(try await self.send(client, .post, "/api/scores/\(score)/changes/99999999999/undo", who["Zoë Král"] ?? [:],
                                                      versionOf: score).status, .notFound)
            try await self.expect(try await self.send(client, .post, "/api/scores/\(score)/changes/x/undo", who["Zoë Král"] ?? [:],
                                                      versionOf: score).status, .notFound)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
            let taken = try await self.send(client, .post, takeBack, who["Zoë Král"] ?? [:], versionOf: score)
            XCTAssertEqual(taken.status, .ok, String(buffer: taken.body))
            XCTAssertEqual(taken.headers[.eTag], FileVersion.tag(of: path))
            let left = try ServerFixture.python("""
                import pikepdf, subprocess, sys
                assert subprocess.run(["qpdf", "--check", sys.argv[1]], capture_output=True).returncode == 0
                pdf = pikepdf.open(sys.argv[1])
                print("|".join(sorted(f"{a.Contents}={a.OC.Name}" for a in pdf.pages[0].Annots if a.get("/Subtype") == "/FreeText")))
                """, path)
            XCTAssertEqual(left, "A2 – 弓=Anna Nováková — Violin II|B – альт=Борис — Viola|C – 指揮=李雷 — conductor")
            try await self.expect(try await self.send(client, .post, takeBack, who["Zoë Král"] ?? [:], versionOf: score).status, .conflict)
            let latest = try await history("Zo%C3%AB%20Kr%C3%A1l")
            XCTAssertEqual(latest.first?["change"] as? String, "Took back “Added a text” (Anna Nováková)", "\(latest)")
        }
    }

    func testTheLibrarianInvitesAndAnInvitationWorksOnce() async throws {
        let server = try membersServer()
        try await server.application(logger: .init(label: "test")).test(.live) { client in
            let zoe = try await self.logIn(client, "Zoë Král")
            let added = try await self.send(client, .post, "/api/members", zoe, #"{"name":"Ιωάννης","role":"section-leader","instrument":"Horn in F 2"}"#)
            XCTAssertEqual(added.status, .created, String(buffer: added.body))
            let invited = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: added.body)) as? [String: Any])
            let token = try XCTUnwrap(invited["token"] as? String)
            XCTAssertTrue((invited["link"] as? String)?.hasSuffix("/invite/\(token)") == true)
            XCTAssertTrue((invited["qr"] as? String)?.hasPrefix("<svg") == true)
            try await self.expect(try await self.send(client, .post, "/api/members", zoe, #"{"name":"x","role":"drummer"}"#).status, .badRequest)
            // The invitation page, the password set once, a session opened.
            let page = try await client.execute(uri: "/invite/\(token)", method: .get)
            XCTAssertTrue(String(buffer: page.body).contains("Welcome, Ιωάννης"))
            let headers = try await self.csrf(client)
            let first = try await client.execute(uri: "/api/invitations/\(token)", method: .post, headers: headers,
                                                 body: ByteBuffer(string: #"{"password":"κέρας στο φα"}"#))
            XCTAssertEqual(first.status, .ok, String(buffer: first.body))
            XCTAssertTrue(first.headers[.setCookie]?.hasPrefix("folio_session=") == true)
            let second = try await client.execute(uri: "/api/invitations/\(token)", method: .post, headers: headers,
                                                  body: ByteBuffer(string: #"{"password":"someone else's"}"#))
            XCTAssertEqual(second.status, .forbidden)
            XCTAssertTrue(String(buffer: second.body).contains("used already"))
            try await self.expectTrue(String(buffer: try await client.execute(uri: "/invite/\(token)", method: .get).body).contains("used already"))
            try await self.expect(try await client.execute(uri: "/invite/nonsense", method: .get).status, .ok)
            // The member exists with the role asked, the password set.
            let listed = try await client.execute(uri: "/api/members", method: .get, headers: zoe)
            XCTAssertTrue(String(buffer: listed.body).contains(#""role":"section-leader""#))
        }
    }

    func testGuessesAgainstOneMemberFromManyAddressesAreThrottled() async throws {
        let server = try membersServer { options in
            Self.quickThrottle(&options, banAfter: 8)
            options.loginPolicy.globalBurst = 1_000
        }
        try await server.application(logger: .init(label: "test")).test(.live) { client in
            var headers = try await self.csrf(client)
            func guess(_ from: String, _ password: String) async throws -> HTTPResponse.Status {
                headers[HTTPField.Name("X-Forwarded-For")!] = from
                let body = try JSONSerialization.data(withJSONObject: ["name": "Anna Nováková", "password": password])
                return try await client.execute(uri: "/api/session", method: .post, headers: headers, body: ByteBuffer(bytes: body)).status
            }
            // Anna's own tablet has logged in before the guessing starts.
            try await self.expect(try await guess("192.0.2.50", self.passwords["Anna Nováková"] ?? ""), .ok)
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<12 { statuses.append(try await guess("203.0.113.\(index + 1)", "guess \(index)")) }
            XCTAssertEqual(Array(statuses.prefix(8)), [HTTPResponse.Status](repeating: .unauthorized, count: 8))
            XCTAssertEqual(statuses.dropFirst(8).filter { $0 == .tooManyRequests }.count, 4, "\(statuses)")
            // Her right password from a new address waits too; another member is not held up.
            try await self.expect(try await guess("192.0.2.9", self.passwords["Anna Nováková"] ?? ""), .tooManyRequests)
            // Her tablet, which proved itself, is not locked out by others' guesses.
            try await self.expect(try await guess("192.0.2.50", self.passwords["Anna Nováková"] ?? ""), .ok)
            headers[HTTPField.Name("X-Forwarded-For")!] = "192.0.2.10"
            let body = try JSONSerialization.data(withJSONObject: ["name": "Борис", "password": self.passwords["Борис"] ?? ""])
            try await self.expect(try await client.execute(uri: "/api/session", method: .post, headers: headers, body: ByteBuffer(bytes: body)).status, .ok)
        }
    }

    /// A mark's name (`/NM`, its id) is unique in the score: another player cannot borrow it on
    /// another page or the same one (409, the file byte-identical), while the owner's retry after
    /// a lost answer finds the mark it added; the owner's mark stays listed, in their layer, and
    /// theirs to delete.
    func testABorrowedMarkNameIsRefusedAndTheOwnersRetryFindsTheirMark() async throws {
        let server = try membersServer()
        let path = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        try await server.application(logger: .init(label: "test")).test(.live) { client in
            let anna = try await self.logIn(client, "Anna Nováková"), boris = try await self.logIn(client, "Борис")
            let scores = try await client.execute(uri: "/api/scores?q=debussy", method: .get, headers: anna)
            let score = try XCTUnwrap(try ServerFixture.decode(ServerFixture.Scores.self, scores).scores.first).id
            func post(_ who: HTTPFields, page: Int, text: String) async throws -> TestResponse {
                try await self.send(client, .post, "/api/scores/\(score)/annotations", who, versionOf: score,
                                    #"{"type":"freetext","page":\#(page),"rect":[40,40,200,24],"text":"\#(text)","name":"anna-3f2504e0"}"#)
            }
            let first = try await post(anna, page: 1, text: "dolce – něžně")
            XCTAssertEqual(first.status, .created, String(buffer: first.body))
            let id = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(buffer: first.body)) as? [String: Any])?["id"] as? String)
            let retry = try await post(anna, page: 1, text: "dolce – něžně")
            XCTAssertEqual(retry.status, .created)
            XCTAssertTrue(String(buffer: retry.body).contains("\"\(id)\""), String(buffer: retry.body))
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for page in [2, 1] {
                let borrowed = try await post(boris, page: page, text: "мой")
                XCTAssertEqual(borrowed.status, .conflict, "page \(page): \(String(buffer: borrowed.body))")
                XCTAssertTrue(String(buffer: borrowed.body).contains("another mark"), String(buffer: borrowed.body))
            }
            // Anna herself may not reuse it on another page either: one name, one mark.
            try await self.expect(try await post(anna, page: 3, text: "znovu").status, .conflict)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "refusals leave the file byte-identical")
            let names = try ServerFixture.python("""
                import pikepdf, sys
                pdf = pikepdf.open(sys.argv[1])
                print(sum(1 for p in pdf.pages for a in p.get("/Annots", []) if str(a.get("/NM", "")) == "anna-3f2504e0"))
                """, path)
            XCTAssertEqual(names, "1")
            let listed = String(buffer: try await client.execute(uri: "/api/scores/\(score)/annotations?page=1", method: .get, headers: anna).body)
            XCTAssertTrue(listed.contains(#""layer":"Anna Nováková — Violin II""#), listed)
            try await self.expect(try await self.send(client, .delete, "/api/scores/\(score)/annotations/\(id)", anna, versionOf: score).status,
                                  .noContent)
        }
    }

    /// An invitation's token is looked up before its password is hashed, and wrong tokens count
    /// as wrong passwords: a flood of made-up tokens is slowed, then refused (429), and costs
    /// no scrypt (a password past the limit is never even checked for a token that is not there).
    func testMadeUpInvitationsCostNothingAndAreThrottled() async throws {
        let server = try membersServer { Self.quickThrottle(&$0, banAfter: 6) }
        let catalog = server.service.catalog
        XCTAssertThrowsError(try catalog.redeemInvitation(SecretToken.make(), password: String(repeating: "é", count: 5_000))) {
            XCTAssertEqual(($0 as? LibraryError)?.code, .notFound, "looked up before the password is checked or hashed")
        }
        try await server.application(logger: .init(label: "test")).test(.live) { client in
            let headers = try await self.csrf(client)
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<8 {
                statuses.append(try await client.execute(uri: "/api/invitations/\(SecretToken.make())", method: .post, headers: headers,
                                                         body: ByteBuffer(string: #"{"password":"hádám heslo"}"#)).status)
            }
            XCTAssertEqual(Array(statuses.prefix(6)), [HTTPResponse.Status](repeating: .notFound, count: 6), "\(statuses)")
            XCTAssertEqual(Array(statuses.dropFirst(6)), [.tooManyRequests, .tooManyRequests], "\(statuses)")
            try await self.expect(try await client.execute(uri: "/api/invitations/\(SecretToken.make())", method: .get).status, .tooManyRequests)
        }
    }

    /// A session cannot be guessed, so it opens the library from an address banned for
    /// others' wrong passwords (everyone behind one school's NAT).
    func testAValidSessionIsNotRefusedForAnotherDevicesGuessing() async throws {
        let server = try membersServer { Self.quickThrottle(&$0, banAfter: 4) }
        try await server.application(logger: .init(label: "test")).test(.live) { client in
            var anna = try await self.logIn(client, "Anna Nováková")
            anna[HTTPField.Name("X-Forwarded-For")!] = "198.51.100.7"
            var guesser = try await self.csrf(client)
            guesser[HTTPField.Name("X-Forwarded-For")!] = "198.51.100.7"
            for index in 0..<6 {
                _ = try await client.execute(uri: "/api/session", method: .post, headers: guesser,
                                             body: ByteBuffer(string: #"{"name":"Борис","password":"hádání \#(index)"}"#))
            }
            try await self.expect(try await client.execute(uri: "/api/session", method: .post, headers: guesser,
                                                           body: ByteBuffer(string: #"{"name":"Борис","password":"альт и смычок"}"#)).status,
                                  .tooManyRequests)
            try await self.expect(try await client.execute(uri: "/api/scores", method: .get, headers: anna).status, .ok)
        }
    }

    /// Pictures of pages as a member other than the librarian sees them: drawn without marks
    /// (Poppler's `-hide-annotations`, compared byte for byte), so no pixel of another's private
    /// mark shows; the librarian's show every mark, under another version tag.
    func testPicturesShowNoMarkToAMemberWhoMayNotSeeEveryLayer() async throws {
        let server = try membersServer()
        let path = fixture.path("Brahms-Cancion_de_Cuna.pdf")
        try await server.application(logger: .init(label: "test")).test(.live) { client in
            let anna = try await self.logIn(client, "Anna Nováková"), boris = try await self.logIn(client, "Борис")
            let zoe = try await self.logIn(client, "Zoë Král")
            let scores = try await client.execute(uri: "/api/scores?q=cuna", method: .get, headers: anna)
            let score = try XCTUnwrap(try ServerFixture.decode(ServerFixture.Scores.self, scores).scores.first).id
            let square = try await self.send(client, .post, "/api/scores/\(score)/annotations", boris, versionOf: score,
                                             ##"{"type":"square","page":1,"rect":[30,30,400,300],"color":"#ff0000","width":20}"##)
            XCTAssertEqual(square.status, .created, String(buffer: square.body))
            let asAnna = try await client.execute(uri: "/api/scores/\(score)/pages/1/image?height=400", method: .get, headers: anna)
            let asZoe = try await client.execute(uri: "/api/scores/\(score)/pages/1/image?height=400", method: .get, headers: zoe)
            XCTAssertEqual(asAnna.status, .ok)
            XCTAssertEqual(asZoe.status, .ok)
            XCTAssertNotEqual(asAnna.headers[.eTag], asZoe.headers[.eTag])
            XCTAssertNotEqual(Data(buffer: asAnna.body), Data(buffer: asZoe.body), "the librarian's picture shows Boris's square")
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bare-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftoppm")
            process.arguments = ["-f", "1", "-l", "1", "-scale-to-y", "400", "-scale-to-x", "-1", "-png", "-singlefile", "-hide-annotations",
                                 path, folder.appendingPathComponent("bare").path]
            try process.run()
            process.waitUntilExit()
            let bare = try Data(contentsOf: folder.appendingPathComponent("bare.png"))
            XCTAssertEqual(Data(buffer: asAnna.body), bare, "Anna's picture is the page without marks")
            let cover = try await client.execute(uri: "/api/scores/\(score)/cover", method: .get, headers: anna)
            XCTAssertTrue(cover.headers[.eTag]?.hasSuffix("-no-marks\"") == true, "\(cover.headers)")
        }
    }

    /// Member names keep the rule file names keep, and do not mix look-alike scripts in a word.
    func testMemberNamesThatDisguiseAnotherAreRefused() throws {
        let catalog = try LibraryCatalog(folder: fixture.folder.path)
        for name in ["\u{0410}nna", "Anna\u{2060}", "\u{202E}annA", "An\u{00AD}na", "\u{200D}Anna", "Ιωάννηs",
                     "A" + String(repeating: "\u{0301}", count: 100_000), String(repeating: "ř", count: 101)] {
            XCTAssertThrowsError(try catalog.addMember(MemberSetting(name: name)), name.debugDescription.prefix(40).description) {
                XCTAssertEqual(($0 as? LibraryError)?.code, .invalidArgument)
            }
        }
        for name in ["Пётр Smith", "李雷", "Ιωάννης", "Dvořák-Čajkovskij", "محمد\u{200C}رضا", "👩\u{200D}🎤 Zuzana"] {
            XCTAssertNoThrow(try catalog.addMember(MemberSetting(name: name)), name)
        }
    }
}
