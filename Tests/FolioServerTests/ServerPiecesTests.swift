import FolioLibrary
import FolioScore
import FolioServer
import FolioTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// Split and merge through the API — the operations `folio split` and `folio merge` run —
/// the new files read by pikepdf, catalogued at once, the book left byte-identical.
final class ServerPiecesTests: ServerTestCase, @unchecked Sendable {
    private struct Pieces: Decodable { let pieces: [ScoreService.SplitPiece] }

    func testAnAnthologySplitsByItsContentsAndMergesBack() async throws {
        let book = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        // Two pieces in its outline, written by pikepdf.
        _ = try ServerFixture.python("""
            import sys, pikepdf
            pdf = pikepdf.open(sys.argv[1], allow_overwriting_input=True)
            with pdf.open_outline() as outline:
                outline.root[:] = [pikepdf.OutlineItem("Andante très expressif", 0), pikepdf.OutlineItem("Un poco mosso — 少し動いて", 2)]
            pdf.save(sys.argv[1])
            """, book)
        let original = try Data(contentsOf: URL(fileURLWithPath: book))
        // What forScore would make of its outline, read by pikepdf: each entry runs to the next.
        let outline = try ServerFixture.python("""
            import sys, pymupdf
            doc = pymupdf.open(sys.argv[1])
            print(doc.page_count, *[page for level, title, page in doc.get_toc() if page > 0])
            """, book).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let (pageCount, starts) = (outline[0], Array(outline.dropFirst()))
        XCTAssertEqual(starts.count, 2, "the fixture's outline has two entries with pages")
        try await Application(router: try fixture.server().router()).test(.router) { client in
            let headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "clair")
            let plan = try await client.execute(uri: "/api/scores/\(id)/split", method: .post, headers: headers,
                                                body: ByteBuffer(string: #"{"by": "toc", "dryRun": true}"#))
            XCTAssertEqual(plan.status, .ok, String(buffer: plan.body))
            let planned = try ServerFixture.decode(Pieces.self, plan).pieces
            XCTAssertEqual(planned.map(\.start), starts)
            XCTAssertEqual(planned.last?.end, pageCount)
            XCTAssertTrue(planned.allSatisfy { $0.score == nil }, "a dry run writes nothing")
            XCTAssertFalse(FileManager.default.fileExists(atPath: self.fixture.path(planned[0].path)))

            for by in ["1-9999", "0", "-9223372036854775808", "1-9223372036854775807", "9223372036854775807-1", "5-2", "",
                       String(repeating: "1,", count: 100_000) + "1", "bookmarks"] {   // this book has no stored bookmarks
                let bad = try await client.execute(uri: "/api/scores/\(id)/split", method: .post, headers: headers,
                                                   body: ByteBuffer(string: #"{"by": "\#(by)", "dryRun": true}"#))
                XCTAssertEqual(bad.status, .badRequest, "\(by.prefix(40)): \(String(buffer: bad.body).prefix(300))")
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: self.fixture.folder.path).filter { $0.hasSuffix(".pdf") }.count,
                           3, "nothing written by a refusal or a plan")

            let made = try await client.execute(uri: "/api/scores/\(id)/split", method: .post, headers: headers,
                                                body: ByteBuffer(string: #"{"by": "toc"}"#))
            XCTAssertEqual(made.status, .created, String(buffer: made.body))
            let pieces = try ServerFixture.decode(Pieces.self, made).pieces
            XCTAssertEqual(pieces.map(\.path), planned.map(\.path))
            for piece in pieces {
                let file = self.fixture.path(piece.path)
                let pages = try ServerFixture.python("import sys, pikepdf\nprint(len(pikepdf.open(sys.argv[1]).pages))", file)
                XCTAssertEqual(Int(pages.trimmingCharacters(in: .whitespacesAndNewlines)), piece.end - piece.start + 1, piece.path)
                XCTAssertEqual(piece.score?.pages, piece.end - piece.start + 1, "catalogued at once")
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: book)), original, "the book stays as it was")

            let again = try await client.execute(uri: "/api/scores/\(id)/split", method: .post, headers: headers,
                                                 body: ByteBuffer(string: #"{"by": "toc"}"#))
            let second = try ServerFixture.decode(Pieces.self, again).pieces
            XCTAssertEqual(Set(second.map(\.path)).intersection(pieces.map(\.path)), [], "a taken name gets a number, nothing is overwritten")

            let ids = pieces.compactMap { $0.score?.id }
            let merge = try await client.execute(uri: "/api/merge", method: .post, headers: headers, body: ByteBuffer(string:
                #"{"scores": [\#(ids.map(String.init).joined(separator: ","))], "name": "Clair — 月の光", "title": "Clair de lune (again)"}"#))
            XCTAssertEqual(merge.status, .created, String(buffer: merge.body))
            let merged = try ServerFixture.decode(ScoreService.Score.self, merge)
            XCTAssertEqual(merged.path, "Clair — 月の光.pdf")
            XCTAssertEqual(merged.title, "Clair de lune (again)")
            let check = try TestEnvironment.runTool("qpdf", ["--check", self.fixture.path(merged.path)])
            XCTAssertEqual(check.status, 0, String(decoding: check.stdout, as: UTF8.self))
            let total = try ServerFixture.python("import sys, pikepdf\nprint(len(pikepdf.open(sys.argv[1]).pages))", self.fixture.path(merged.path))
            XCTAssertEqual(Int(total.trimmingCharacters(in: .whitespacesAndNewlines)), pageCount - starts[0] + 1)

            for body in [#"{"scores": [], "name": "x"}"#, #"{"scores": [\#(id)], "name": "../x.pdf"}"#,
                         #"{"scores": [9223372036854775807], "name": "x"}"#] {
                let refused = try await client.execute(uri: "/api/merge", method: .post, headers: headers, body: ByteBuffer(string: body))
                XCTAssertTrue([.badRequest, .notFound].contains(refused.status), "\(body): \(refused.status)")
            }
        }
    }
}
