import FolioLibrary
import FolioScore
import FolioServer
import FolioTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// Rehearsals and parts through HTTP: a rehearsal started (201 with its code and key), shown,
/// its join link as a QR code that zbarimg reads back, its pages (the follower's, the code
/// form, a code that does not exist), its socket refused without this server's Origin, for an
/// unknown code or without a member, and ended only with the leader's key; a piece's parts
/// listed and a label set by hand, bad ones refused with the valid range.
final class ServerRehearsalTests: ServerTestCase, @unchecked Sendable {
    private struct Started: Decodable { let code: String; let key: String; let join: String; let qr: String }

    func testRehearsalOverHTTP() async throws {
        try TestEnvironment.copy(atPath: fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf"),
                                         toPath: fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75 - Trompete in B.pdf"))
        let app = Application(router: try fixture.server().router())
        try await app.test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            headers[.contentType] = "application/json"
            let score = try await ServerFixture.scoreID(client, query: "clair")
            func start(_ body: String) async throws -> TestResponse {
                try await client.execute(uri: "/api/rehearsals", method: .post, headers: headers, body: ByteBuffer(string: body))
            }
            let created = try await start(#"{"score":\#(score),"leader":"Dvořák"}"#)
            XCTAssertEqual(created.status, .created, String(buffer: created.body))
            let started = try ServerFixture.decode(Started.self, created)
            XCTAssertEqual(started.join, "/rehearse/\(started.code)")
            for (body, status) in [(#"{"score":999999}"#, HTTPResponse.Status.notFound), (#"{"leader":"x"}"#, .badRequest),
                                   (#"{"score":\#(score),"leader":"\#(String(repeating: "é", count: 61))"}"#, .badRequest),
                                   (#"{"score":\#(score),"piece":0}"#, .badRequest)] {
                let refused = try await start(body)
                XCTAssertEqual(refused.status, status, body)
            }
            var noCSRF = headers
            noCSRF[HTTPField.Name("X-Folio-CSRF")!] = nil
            let forged = try await client.execute(uri: "/api/rehearsals", method: .post, headers: noCSRF,
                                                  body: ByteBuffer(string: #"{"score":\#(score)}"#))
            XCTAssertEqual(forged.status, .forbidden)

            // Shown by code, typed in any case.
            let summary = try await client.execute(uri: "/api/rehearsals/\(started.code.lowercased())", method: .get)
            XCTAssertEqual(summary.status, .ok)
            XCTAssertTrue(String(buffer: summary.body).contains(#""leader":"Dvořák""#), String(buffer: summary.body))

            // The QR code: the join link on the name the request used (the test client's is
            // localhost; the browser test reads one on 127.0.0.1 and a port).
            let qr = try await client.execute(uri: started.qr, method: .get)
            XCTAssertEqual(qr.headers[.contentType], "image/svg+xml")
            XCTAssertEqual(try Self.scan(svg: String(buffer: qr.body)), "http://localhost/rehearse/\(started.code)")

            // The pages.
            let follower = try await client.execute(uri: started.join, method: .get)
            XCTAssertEqual(follower.status, .ok)
            XCTAssertTrue(String(buffer: follower.body).contains(#"data-code="\#(started.code)""#))
            let typed = try await client.execute(uri: "/rehearse?code=\(started.code.lowercased().prefix(3))-\(started.code.lowercased().dropFirst(3))", method: .get)
            XCTAssertEqual(typed.status, .seeOther)
            XCTAssertEqual(typed.headers[.location], started.join)
            let missing = try await client.execute(uri: "/rehearse/NOSUCH", method: .get)
            XCTAssertEqual(missing.status, .notFound)
            XCTAssertTrue(String(buffer: missing.body).contains("There is no rehearsal NOSUCH"))
            let scorePage = try await client.execute(uri: "/scores/\(score)", method: .get)
            XCTAssertTrue(String(buffer: scorePage.body).contains(#"id="rehearse""#))

            // The socket's address without an upgrade says why it cannot open.
            let socket = "/api/rehearsals/\(started.code)/socket?member=cello-tab-0001&name=Ji%C5%99%C3%AD"
            let origin: HTTPFields = [.origin: "http://localhost"]
            var reply = try await client.execute(uri: socket, method: .get, headers: origin)
            XCTAssertEqual(reply.status.code, 426)
            reply = try await client.execute(uri: socket, method: .get, headers: [.origin: "http://evil.example"])
            XCTAssertEqual(reply.status, .forbidden)
            reply = try await client.execute(uri: socket, method: .get, headers: [.origin: "http://127.0.0.1"])
            XCTAssertEqual(reply.status, .forbidden, "an Origin that is not the Host")
            reply = try await client.execute(uri: socket, method: .get)
            XCTAssertEqual(reply.status, .forbidden, "no Origin")
            reply = try await client.execute(uri: "/api/rehearsals/NOSUCH/socket?member=cello-tab-0001&name=x", method: .get, headers: origin)
            XCTAssertEqual(reply.status, .notFound)
            reply = try await client.execute(uri: "/api/rehearsals/\(started.code)/socket?member=x&name=y", method: .get, headers: origin)
            XCTAssertEqual(reply.status, .badRequest)

            // Ended only with the leader's key.
            let key = HTTPField.Name("X-Rehearsal-Key")!
            var ending = headers
            ending[key] = String(repeating: "0", count: 64)
            reply = try await client.execute(uri: "/api/rehearsals/\(started.code)", method: .delete, headers: ending)
            XCTAssertEqual(reply.status, .conflict)
            ending[key] = started.key
            reply = try await client.execute(uri: "/api/rehearsals/\(started.code)", method: .delete, headers: ending)
            XCTAssertEqual(reply.status, .noContent)
            reply = try await client.execute(uri: "/api/rehearsals/\(started.code)", method: .get)
            XCTAssertEqual(reply.status, .notFound)
        }
    }

    func testPartsOverHTTP() async throws {
        try TestEnvironment.copy(atPath: fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf"),
                                         toPath: fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75 (Скрипка II).pdf"))
        let app = Application(router: try fixture.server().router())
        try await app.test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            headers[.contentType] = "application/json"
            let score = try await ServerFixture.scoreID(client, query: "clair")
            let piece = try ServerFixture.decode(PieceParts.self, try await client.execute(uri: "/api/scores/\(score)/parts", method: .get))
            XCTAssertEqual(piece.song, "Debussy-Suite_Bergamasque_Clair_de_Lune_L75")
            XCTAssertEqual(piece.parts.compactMap(\.label?.instrument), ["Violin"])
            XCTAssertEqual(piece.parts.compactMap(\.label?.number), [2])

            let brahms = try await ServerFixture.scoreID(client, query: "cuna")
            let set = try await client.execute(uri: "/api/scores/\(brahms)/part", method: .put, headers: headers,
                                               body: ByteBuffer(string: #"{"label":"Violoncello","song":"Debussy Suite Bergamasque Clair de Lune L75"}"#))
            XCTAssertEqual(set.status, .ok, String(buffer: set.body))
            XCTAssertEqual(try ServerFixture.decode(ScorePart.self, set).label?.instrument, "Cello")
            let grouped = try ServerFixture.decode(PieceParts.self, try await client.execute(uri: "/api/scores/\(score)/parts", method: .get))
            XCTAssertEqual(grouped.parts.count, 3, "the labelled Brahms joins the piece: \(grouped.parts.map(\.path))")
            let bad = try await client.execute(uri: "/api/scores/\(brahms)/part", method: .put, headers: headers,
                                               body: ByteBuffer(string: #"{"label":"\#(String(repeating: "x", count: 101))"}"#))
            XCTAssertEqual(bad.status, .badRequest)
            XCTAssertTrue(String(buffer: bad.body).contains("1 to 100 characters"))
            let none = try await client.execute(uri: "/api/scores/999999/parts", method: .get)
            XCTAssertEqual(none.status, .notFound)

            let instruments = try await client.execute(uri: "/api/instruments", method: .get)
            let text = String(buffer: instruments.body)
            XCTAssertTrue(text.contains(#""written":"Скрипка II""#), text)
            XCTAssertTrue(text.contains(#""written":"Violoncello""#), text)
        }
    }

    /// What zbarimg reads from an SVG QR code, drawn as a PGM from its path's squares.
    static func scan(svg: String) throws -> String {
        guard let size = svg.firstMatch(of: /width="(\d+)"/).flatMap({ Int($0.1) }), let path = svg.firstMatch(of: /d="([^"]*)"/)?.1 else {
            throw TestFailure("not an SVG QR code: \(svg.prefix(200))")
        }
        var pixels = [UInt8](repeating: 255, count: size * size)
        for square in path.matches(of: /M(\d+) (\d+)h(\d+)/) {
            guard let x = Int(square.1), let y = Int(square.2), let side = Int(square.3) else { continue }
            for row in y..<(y + side) { for column in x..<(x + side) { pixels[row * size + column] = 0 } }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pgm")
        defer { try? FileManager.default.removeItem(at: file) }
        try (Data("P5\n\(size) \(size)\n255\n".utf8) + Data(pixels)).write(to: file)
        let result = try TestEnvironment.runTool("zbarimg", ["--raw", "-q", file.path])
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .newlines)
    }
}
