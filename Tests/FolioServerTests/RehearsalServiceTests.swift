import FolioLibrary
import FolioScore
@testable import FolioServer
import FolioTestSupport
import Foundation
import XCTest

/// Rehearsals apart from sockets: the leader's moves reach each follower on their own part
/// (a trumpeter's part, a violinist's section, the full score for a player without one), late
/// joiners start where the leader is, a follower cannot move anyone, too many messages close
/// a connection, a reconnection replaces the old one, leading is handed over, and a rehearsal
/// ends when its leader leaves (or never comes).
final class RehearsalServiceTests: ServerTestCase, @unchecked Sendable {
    private let debussy = "Debussy-Suite_Bergamasque_Clair_de_Lune_L75"

    private func library(limits: RehearsalService.Limits = .init()) throws -> (RehearsalService, LibraryCatalog) {
        // Four pages each (the Debussy's), so every page the leader turns to is in every part.
        for part in ["\(debussy) - Trumpet in Bb.pdf", "\(debussy) (Streicher).pdf"] {
            try TestEnvironment.copy(atPath: fixture.path("\(debussy).pdf"), toPath: fixture.path(part))
        }
        let catalog = try LibraryCatalog(folder: fixture.folder.path)
        try LibraryScanner(catalog: catalog).scan()
        return (RehearsalService(catalog: catalog, limits: limits), catalog)
    }

    private func id(_ catalog: LibraryCatalog, _ path: String) throws -> Int64 {
        try XCTUnwrap(try catalog.parts(of: path).parts.first { $0.path == path }).id
    }

    /// The next message of `type` a member receives (others skipped), as JSON.
    private func next(_ iterator: inout AsyncStream<String>.Iterator, _ type: String) async throws -> [String: Any] {
        while let text = await iterator.next() {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            if object["type"] as? String == type { return object }
        }
        throw TestFailure("the stream ended before a \(type) message")
    }

    func testMovesReachEveryPart() async throws {
        let (rehearsals, catalog) = try library()
        let full = try id(catalog, "\(debussy).pdf")
        let trumpetPart = try id(catalog, "\(debussy) - Trumpet in Bb.pdf")
        let stringsPart = try id(catalog, "\(debussy) (Streicher).pdf")
        let brahms = try id(catalog, "Brahms-Cancion_de_Cuna.pdf")
        let started = try await rehearsals.start(score: full, leader: "Jana Nováková")
        XCTAssertEqual(started.code.count, 6)
        XCTAssertTrue(started.code.allSatisfy { RehearsalService.alphabet.contains($0) })

        let leader = try await rehearsals.connect(.init(code: started.code.lowercased(), member: "leader-tab-0001", name: "Jana", key: started.key))
        XCTAssertTrue(leader.leader)
        let trumpet = try await rehearsals.connect(.init(code: started.code, member: "trumpet-tab-01", name: "Πέτρος", instrument: "Trompete in B"))
        let cello = try await rehearsals.connect(.init(code: started.code, member: "cello-tab-0001", name: "Мария", instrument: "Violoncello"))
        let tuba = try await rehearsals.connect(.init(code: started.code, member: "tuba-tab-00001", name: "太郎", instrument: "Tuba"))
        var leaderMessages = leader.messages.makeAsyncIterator()
        var trumpetMessages = trumpet.messages.makeAsyncIterator()
        var celloMessages = cello.messages.makeAsyncIterator()
        var tubaMessages = tuba.messages.makeAsyncIterator()

        // Each follower starts where the leader is, on their own part.
        var position = try await next(&trumpetMessages, "position")
        XCTAssertEqual(position["score"] as? Int64, trumpetPart)
        XCTAssertEqual(position["fit"] as? String, "instrument")
        position = try await next(&celloMessages, "position")
        XCTAssertEqual(position["score"] as? Int64, stringsPart)
        XCTAssertEqual(position["fit"] as? String, "section")
        position = try await next(&tubaMessages, "position")
        XCTAssertEqual(position["score"] as? Int64, full)
        XCTAssertEqual(position["fit"] as? String, "full")

        // The leader turns: page 2 with a half turn, two pages; each follower gets it.
        var verdict = await rehearsals.receive(code: started.code, member: "leader-tab-0001", connection: leader.connection,
                                               text: #"{"type":"move","score":\#(full),"page":1,"halfway":true}"#)
        XCTAssertEqual(verdict, .keep)
        position = try await next(&trumpetMessages, "position")
        XCTAssertEqual(position["page"] as? Int, 1)
        XCTAssertEqual(position["halfway"] as? Bool, true)
        XCTAssertEqual(position["leaderScore"] as? Int64, full)
        _ = await rehearsals.receive(code: started.code, member: "leader-tab-0001", connection: leader.connection,
                                     text: #"{"type":"move","score":\#(full),"page":2,"two":true}"#)
        position = try await next(&celloMessages, "position")
        XCTAssertEqual(position["halfway"] as? Bool, true, "the half turn came first")
        position = try await next(&celloMessages, "position")
        XCTAssertEqual(position["page"] as? Int, 2)
        XCTAssertEqual(position["two"] as? Bool, true)

        // The leader sees who follows and who has no part.
        var members = try await next(&leaderMessages, "members")
        while (members["members"] as? [[String: Any]])?.count != 4 { members = try await next(&leaderMessages, "members") }
        let listed = try XCTUnwrap(members["members"] as? [[String: Any]])
        XCTAssertEqual(listed.compactMap { $0["name"] as? String }, ["Jana", "Πέτρος", "Мария", "太郎"])
        XCTAssertEqual(listed.last?["fit"] as? String, "full")

        // A new piece: the trumpeter has no part of the Brahms, so sees its score.
        _ = await rehearsals.receive(code: started.code, member: "leader-tab-0001", connection: leader.connection,
                                     text: #"{"type":"move","score":\#(brahms),"page":1}"#)
        position = try await next(&trumpetMessages, "position")
        while position["leaderScore"] as? Int64 != brahms { position = try await next(&trumpetMessages, "position") }
        XCTAssertEqual(position["score"] as? Int64, brahms)
        XCTAssertEqual(position["fit"] as? String, "full")

        // A follower cannot move the others; a page out of range and an unknown score are refused.
        verdict = await rehearsals.receive(code: started.code, member: "trumpet-tab-01", connection: trumpet.connection,
                                           text: #"{"type":"move","score":\#(full),"page":3}"#)
        XCTAssertEqual(verdict, .keep)
        let refused = try await next(&trumpetMessages, "error")
        XCTAssertEqual(refused["message"] as? String, "only the leader turns the pages")
        for bad in [#"{"type":"move","score":\#(full),"page":0}"#, #"{"type":"move","score":999999,"page":1}"#, "not json",
                    #"{"type":"dance"}"#] {
            _ = await rehearsals.receive(code: started.code, member: "leader-tab-0001", connection: leader.connection, text: bad)
            let error = try await next(&leaderMessages, "error")
            XCTAssertFalse((error["message"] as? String ?? "").isEmpty, bad)
        }

        // A late joiner starts at the leader's place.
        let late = try await rehearsals.connect(.init(code: started.code, member: "late-tab-00001", name: "Zoë"))
        var lateMessages = late.messages.makeAsyncIterator()
        position = try await next(&lateMessages, "position")
        XCTAssertEqual(position["score"] as? Int64, brahms)
        XCTAssertEqual(position["page"] as? Int, 1)
    }

    /// Limits free themselves: a follower who left frees their slot after the grace, one
    /// client cannot hold every rehearsal, and members toggling cannot flood the leader.
    func testSlotsFreeThemselvesAndTheLeaderIsNotFlooded() async throws {
        var limits = RehearsalService.Limits()
        limits.members = 4   // the leader and three followers
        limits.perClient = 2
        limits.memberGrace = .milliseconds(300)
        limits.membersInterval = .milliseconds(200)
        let (rehearsals, catalog) = try library(limits: limits)
        let full = try id(catalog, "\(debussy).pdf")
        _ = try await rehearsals.start(score: full, leader: "Jana", client: "192.0.2.1")
        _ = try await rehearsals.start(score: full, leader: "Jana", client: "192.0.2.1")
        do {
            _ = try await rehearsals.start(score: full, leader: "Jana", client: "192.0.2.1")
            XCTFail("a third rehearsal from one address")
        } catch { XCTAssertEqual((error as Any as? LibraryError)?.code, .tooMany, "one device past its share: 429, not the server busy") }
        let started = try await rehearsals.start(score: full, leader: "Anna – 指揮者", client: "192.0.2.2")
        let leader = try await rehearsals.connect(.init(code: started.code, member: "leader-tab-0001", name: "Anna", key: started.key))
        // Three connect and leave: the rehearsal is full until their grace has passed.
        for index in 0..<3 {
            let joined = try await rehearsals.connect(.init(code: started.code, member: "gone-tab-000\(index)", name: "Gone \(index)"))
            await rehearsals.disconnect(code: started.code, member: "gone-tab-000\(index)", connection: joined.connection)
        }
        do {
            _ = try await rehearsals.connect(.init(code: started.code, member: "real-tab-00001", name: "Петр", instrument: "Violin"))
            XCTFail("full while the leavers may still come back")
        } catch { XCTAssertEqual((error as Any as? LibraryError)?.code, .busy) }
        // One comes back within the grace and keeps their place.
        let back = try await rehearsals.connect(.init(code: started.code, member: "gone-tab-0000", name: "Gone 0"))
        try await Task.sleep(for: .milliseconds(500))
        let real = try await rehearsals.connect(.init(code: started.code, member: "real-tab-00001", name: "Петр", instrument: "Violin"))
        let summary = try await rehearsals.summary(code: started.code)
        XCTAssertEqual(summary.members, 3, "the leader, the one who came back, and the new follower")
        // A hundred toggles within 0.4 s reach the leader as at most a few member lists.
        var messages = leader.messages.makeAsyncIterator()
        try await Task.sleep(for: .milliseconds(300))
        for index in 0..<100 {
            _ = await rehearsals.receive(code: started.code, member: index % 2 == 0 ? "gone-tab-0000" : "real-tab-00001",
                                         connection: index % 2 == 0 ? back.connection : real.connection,
                                         text: index % 4 < 2 ? #"{"type":"detach"}"# : #"{"type":"attach"}"#)
            if index % 25 == 0 { try await Task.sleep(for: .milliseconds(100)) }
        }
        try await Task.sleep(for: .milliseconds(400))
        await rehearsals.disconnect(code: started.code, member: "leader-tab-0001", connection: leader.connection)
        var lists = 0
        while let text = await messages.next() {
            if text.contains(#""type":"members""#) { lists += 1 }
            if text.contains(#""type":"ended""#) { break }
            if lists > 50 { break }
        }
        XCTAssertGreaterThanOrEqual(lists, 1)
        XCTAssertLessThanOrEqual(lists, 15, "member lists at most every 0.2 s, not one per toggle")
    }

    func testRateReconnectionHandoverAndEnd() async throws {
        var limits = RehearsalService.Limits()
        limits.perSecond = 1
        limits.burst = 3
        limits.leaderGrace = .milliseconds(200)
        let (rehearsals, catalog) = try library(limits: limits)
        let full = try id(catalog, "\(debussy).pdf")
        // A rehearsal whose leader never connects ends by itself.
        let abandoned = try await rehearsals.start(score: full, leader: "Nikdo")
        try await Task.sleep(for: .milliseconds(600))
        let left = await rehearsals.exists(code: abandoned.code)
        XCTAssertFalse(left)

        let started = try await rehearsals.start(score: full, leader: "Jana")
        let leader = try await rehearsals.connect(.init(code: started.code, member: "leader-tab-0001", name: "Jana", key: started.key))
        // Nobody follows under the leader's id without its key.
        await XCTAssertThrowsErrorAsync(try await rehearsals.connect(.init(code: started.code, member: "leader-tab-0001", name: "X")))
        let first = try await rehearsals.connect(.init(code: started.code, member: "violin-tab-001", name: "Petr", instrument: "Violin"))

        // A reconnection replaces the old connection: its messages end, the old one is no member.
        let again = try await rehearsals.connect(.init(code: started.code, member: "violin-tab-001", name: "Petr", instrument: "Violin"))
        var old = first.messages.makeAsyncIterator()
        _ = try await next(&old, "replaced")
        while await old.next() != nil {}
        let stale = await rehearsals.receive(code: started.code, member: "violin-tab-001", connection: first.connection, text: #"{"type":"detach"}"#)
        XCTAssertEqual(stale, .close("not a member of this rehearsal"))
        var violin = again.messages.makeAsyncIterator()
        let position = try await next(&violin, "position")
        XCTAssertEqual(position["score"] as? Int64, try id(catalog, "\(debussy) (Streicher).pdf"))
        XCTAssertEqual(position["fit"] as? String, "section")

        // Too many messages close the connection, saying the limit.
        var verdicts: [RehearsalService.Verdict] = []
        for _ in 0..<5 {
            verdicts.append(await rehearsals.receive(code: started.code, member: "violin-tab-001", connection: again.connection,
                                                     text: #"{"type":"attach"}"#))
        }
        XCTAssertEqual(verdicts.prefix(3), [.keep, .keep, .keep])
        XCTAssertEqual(verdicts.last, .close("too many messages: at most 1 a second"))

        // Handed over: the violinist leads with a new key, the old leader follows.
        var leaderMessages = leader.messages.makeAsyncIterator()
        _ = await rehearsals.receive(code: started.code, member: "leader-tab-0001", connection: leader.connection,
                                     text: #"{"type":"handover","to":"violin-tab-001"}"#)
        let lead = try await next(&violin, "lead")
        let key = try XCTUnwrap(lead["key"] as? String)
        XCTAssertNotEqual(key, started.key)
        _ = try await next(&leaderMessages, "follow")
        await XCTAssertThrowsErrorAsync(try await rehearsals.connect(.init(code: started.code, member: "leader-tab-0001", name: "Jana", key: started.key)))
        try await Task.sleep(for: .seconds(1.2))  // the rate's tokens come back
        _ = await rehearsals.receive(code: started.code, member: "violin-tab-001", connection: again.connection,
                                     text: #"{"type":"move","score":\#(full),"page":2}"#)
        var moved = try await next(&leaderMessages, "position")
        XCTAssertEqual(moved["page"] as? Int, 1, "where the rehearsal was when it was handed over")
        moved = try await next(&leaderMessages, "position")
        XCTAssertEqual(moved["page"] as? Int, 2)

        // The new leader's connection drops and it does not come back: the rehearsal ends.
        await rehearsals.disconnect(code: started.code, member: "violin-tab-001", connection: again.connection)
        let ended = try await next(&leaderMessages, "ended")
        XCTAssertEqual(ended["reason"] as? String, "The leader left.")
        let exists = await rehearsals.exists(code: started.code)
        XCTAssertFalse(exists)
    }
}

/// Rehearsal messages from anything a page could send: valid ones and their mutations (bytes
/// dropped, changed, repeated; numbers at their limits) are read or refused with a message,
/// never a crash; past the size limit they are refused as too large.
final class RehearsalMessageTests: XCTestCase {
    func testMessagesFromAnyText() {
        let valid = [#"{"type":"move","score":12,"page":3,"halfway":true,"two":false,"setlist":"Večer","piece":2}"#,
                     #"{"type":"handover","to":"violin-tab-001"}"#, #"{"type":"instrument","instrument":"Скрипка II"}"#,
                     #"{"type":"detach"}"#, #"{"type":"end"}"#]
        XCTAssertEqual(try RehearsalMessage(text: valid[0]),
                       .move(RehearsalPosition(score: 12, page: 3, halfway: true, setlist: "Večer", piece: 2)))
        XCTAssertEqual(try RehearsalMessage(text: valid[2]), .instrument("Скрипка II"))
        var generator = SeededGenerator(#function)
        var read = 0, refused = 0
        for _ in 0..<20_000 {
            var bytes = Array(valid[Int(generator.next(upperBound: UInt32(valid.count)))].utf8)
            let changes = Int(generator.next(upperBound: UInt32(4))) + 1
            for _ in 0..<changes where !bytes.isEmpty {
                let at = Int(generator.next(upperBound: UInt32(bytes.count)))
                switch generator.next(upperBound: UInt32(3)) {
                case 0: bytes.remove(at: at)
                case 1: bytes[at] = UInt8(truncatingIfNeeded: generator.next() as UInt64)
                default: bytes.insert(contentsOf: bytes[at...].prefix(8), at: at)
                }
            }
            do { _ = try RehearsalMessage(text: String(decoding: bytes, as: UTF8.self)); read += 1 } catch {
                XCTAssertFalse(error.message.isEmpty)
                refused += 1
            }
        }
        XCTAssertGreaterThan(read, 0)
        XCTAssertGreaterThan(refused, 0)
        for text in [#"{"type":"move","score":1,"page":100001}"#, #"{"type":"move","score":1,"page":0}"#,
                     #"{"type":"move","score":1}"#, #"{"type":"handover","to":"x"}"#, "[]", ""] {
            XCTAssertThrowsError(try RehearsalMessage(text: text), text)
        }
        let long = #"{"type":"end","pad":""# + String(repeating: "ü", count: 2100) + #""}"#
        XCTAssertThrowsError(try RehearsalMessage(text: long)) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .tooLarge)
        }
    }
}

/// `XCTAssertThrowsError` for an async expression.
func XCTAssertThrowsErrorAsync<T>(_ expression: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line) async {
    do {
        _ = try await expression()
        XCTFail("no error thrown", file: file, line: line)
    } catch {}
}
