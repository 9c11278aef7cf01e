import FolioLibrary
import FolioTestSupport
@testable import FolioServer
import Foundation
import HTTPTypes
import XCTest

/// The door's table of rights (`MemberRights`): what each change needs, closed by default, and
/// never a trap whatever the path — checked on the listed routes, on every route of the OpenAPI
/// document, and on random paths.
final class MemberRightsTests: XCTestCase {
    func testTheTableGivesEachChangeItsRightAndClosesTheRest() {
        func right(_ method: HTTPRequest.Method, _ path: String) -> MemberRight? { MemberRights.right(method, path)?.0 }
        XCTAssertNil(right(.get, "/api/scores/7/annotations"), "reading needs no right here")
        XCTAssertNil(right(.post, "/api/session"))
        XCTAssertNil(right(.delete, "/api/session"))
        XCTAssertNil(right(.post, "/api/invitations/abc"))
        XCTAssertEqual(right(.post, "/api/scores/7/annotations"), .markOwn)
        XCTAssertEqual(right(.patch, "/api/scores/7/annotations/obj-12"), .markOwn)
        XCTAssertEqual(right(.delete, "/api/scores/7/annotations/obj-12"), .markOwn)
        XCTAssertEqual(right(.post, "/api/scores/7/undo"), .markOwn)
        XCTAssertEqual(right(.post, "/api/rehearsals"), .lead)
        XCTAssertEqual(right(.delete, "/api/rehearsals/ABC123"), .lead)
        for (method, path) in [(HTTPRequest.Method.put, "/api/scores/7/metadata"), (.post, "/api/scores/7/links"), (.post, "/api/uploads"),
                               (.post, "/api/setlists"), (.post, "/api/members"), (.delete, "/api/stamps/x"),
                               (.post, "/api/scores/7/annotations/extra"), (.post, "/api/invitations/a/b"), (.put, "/api/session"),
                               (.post, "/api/something-new")] {
            XCTAssertEqual(right(method, path), .library, "\(method) \(path)")
        }
        XCTAssertEqual(MemberRights.right(.delete, "/api/setlists/Koncert")?.1, "change setlists")
    }

    /// Every operation of the OpenAPI document that changes something names the right it
    /// needs (`x-folio-right`), and the door's table agrees; only logging in and out and an
    /// invitation need none.
    func testTheDocumentNamesTheRightOfEveryChangeAsTheTableHasIt() throws {
        let document = try String(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("Sources/FolioServer/Assets/openapi.yaml"),
                                  encoding: .utf8)
        var path = "", method = "", checked = 0, free: [String] = []
        for line in document.split(separator: "\n").map(String.init) {
            if line.hasPrefix("  /api/"), line.hasSuffix(":") { path = String(line.dropFirst(2).dropLast()) }
            if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") { method = String(line.dropFirst(4).dropLast()) }
            guard line.hasPrefix("      x-folio-right: ") else { continue }
            let documented = String(line.dropFirst("      x-folio-right: ".count))
            guard ["post", "put", "patch", "delete"].contains(method) else { continue }
            let concrete = path.replacingOccurrences(of: #"\{[^}]+\}"#, with: "x", options: .regularExpression)
            let table = MemberRights.right(HTTPRequest.Method(rawValue: method.uppercased()) ?? .get, concrete)?.0.rawValue ?? "none"
            XCTAssertEqual(documented, table, "\(method) \(path)")
            if table == "none" { free.append("\(method) \(path)") }
            checked += 1
        }
        let changes = document.split(separator: "\n").filter { ["    post:", "    put:", "    patch:", "    delete:"].contains($0) }.count
        XCTAssertEqual(checked, changes, "every change names its right")
        XCTAssertEqual(free.sorted(), ["delete /api/session", "post /api/invitations/{token}", "post /api/session"])
    }

    func testRandomPathsNeverTrap() {
        var generator = SeededGenerator(#function)
        let pieces = ["api", "scores", "annotations", "undo", "rehearsals", "session", "invitations", "", "..", "%2F", "7", "обj", "😀"]
        let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .head, .options]
        for _ in 0..<5_000 {
            let path = "/" + (0..<Int.random(in: 0...7, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }
                .joined(separator: "/")
            let method = methods.randomElement(using: &generator) ?? .get
            let answer = MemberRights.right(method, path)
            if [.get, .head, .options].contains(method) { XCTAssertNil(answer, path) }
        }
    }
}
