import FolioLibrary
import FolioTestSupport
@testable import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import XCTest

/// The rights each change needs, declared by the controllers where they register their routes
/// (`RouteRights`) and read by the door (`MemberRights`) by the route the router matched: every
/// changing route of the router has one, the OpenAPI document names the same, a route without
/// one is closed, and no path traps.
final class MemberRightsTests: XCTestCase {
    private var fixture: ServerFixture!

    override func setUpWithError() throws { fixture = try ServerFixture() }
    override func tearDown() { fixture.remove() }

    /// The router's own routes and the rights declared for them.
    private func routes() throws -> (router: Router<FolioRequestContext>, rights: RouteRights) {
        try fixture.server(access: .members).routes()
    }

    /// Every route of the router that changes something was registered with its right: a
    /// route added with plain `router.post` fails here.
    func testEveryChangingRouteOfTheRouterDeclaresItsRight() throws {
        let (router, rights) = try routes()
        let changing = router.routes.filter { [.post, .put, .patch, .delete].contains($0.method) }
        XCTAssertGreaterThan(changing.count, 30, "\(changing)")
        let undeclared = changing.filter { rights.right($0.method, $0.path.description) == nil }.map(\.description)
        XCTAssertEqual(undeclared, [], "routes that change something without a declared right")
        XCTAssertEqual(Set(rights.declared.keys), Set(changing.map { RouteRights.key($0.method, $0.path.description) }),
                       "a right declared for a route the router does not have")
    }

    func testTheDoorGivesEachChangeItsRightAndClosesTheRest() throws {
        let door = MemberRights(rights: try routes().rights)
        func right(_ method: HTTPRequest.Method, _ route: String?) -> MemberRight? { door.requirement(method, route: route)?.0 }
        XCTAssertNil(right(.get, "/api/scores/{id}/annotations"), "reading needs no right here")
        XCTAssertNil(right(.post, "/api/session"))
        XCTAssertNil(right(.delete, "/api/session"))
        XCTAssertNil(right(.post, "/api/invitations/{token}"))
        XCTAssertEqual(right(.post, "/api/scores/{id}/annotations"), .markOwn)
        XCTAssertEqual(right(.patch, "/api/scores/{id}/annotations/{annotation}"), .markOwn)
        XCTAssertEqual(right(.delete, "/api/scores/{id}/annotations/{annotation}"), .markOwn)
        XCTAssertEqual(right(.post, "/api/scores/{id}/undo"), .markOwn)
        XCTAssertEqual(right(.post, "/api/rehearsals"), .lead)
        XCTAssertEqual(right(.delete, "/api/rehearsals/{code}"), .lead)
        for (method, route) in [(HTTPRequest.Method.put, "/api/scores/{id}/metadata"), (.post, "/api/scores/{id}/links"), (.post, "/api/uploads"),
                                (.post, "/api/setlists"), (.post, "/api/members"), (.delete, "/api/stamps/{name}"),
                                (.put, "/api/session"), (.post, "/api/something-new"), (.post, "NotFound")] {
            XCTAssertEqual(right(method, route), .library, "\(method) \(route)")
        }
        XCTAssertEqual(right(.post, nil), .library, "no route matched: closed")
        XCTAssertEqual(door.requirement(.delete, route: "/api/setlists/{name}")?.1, "change setlists")
        XCTAssertEqual(door.requirement(.post, route: "/api/drops/{drop}")?.1, "add scores to the library")
    }

    /// Every operation of the OpenAPI document that changes something names the right it
    /// needs (`x-folio-right`) as its route declares it, and the document has every changing
    /// route; only logging in and out and an invitation need none.
    func testTheDocumentNamesTheRightOfEveryChangeAsTheRouteDeclaresIt() throws {
        let rights = try routes().rights
        // Parameter names aside: {id} in the document, {id} from ":id" in the router.
        func shape(_ path: String) -> String { path.replacingOccurrences(of: #"\{[^}]+\}"#, with: "{}", options: .regularExpression) }
        var declared: [String: RouteRight] = [:]
        for (key, right) in rights.declared { declared[shape(key)] = right }
        let document = try String(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("Sources/FolioServer/Assets/openapi.yaml"),
                                  encoding: .utf8)
        var path = "", method = "", documented: [String: String] = [:]
        for line in document.split(separator: "\n").map(String.init) {
            if line.hasPrefix("  /api/"), line.hasSuffix(":") { path = String(line.dropFirst(2).dropLast()) }
            if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") { method = String(line.dropFirst(4).dropLast()) }
            guard line.hasPrefix("      x-folio-right: "), ["post", "put", "patch", "delete"].contains(method) else { continue }
            documented[shape("\(method.uppercased()) \(path)")] = String(line.dropFirst("      x-folio-right: ".count))
        }
        let changes = document.split(separator: "\n").filter { ["    post:", "    put:", "    patch:", "    delete:"].contains($0) }.count
        XCTAssertEqual(documented.count, changes, "every change in the document names its right")
        XCTAssertEqual(Set(documented.keys), Set(declared.keys), "the document's changes are the router's")
        for (key, right) in documented.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(right, declared[key]?.documented, key)
        }
        XCTAssertEqual(documented.filter { $0.value == "none" }.keys.sorted(),
                       ["DELETE /api/session", "POST /api/invitations/{}", "POST /api/session"])
    }

    func testRandomRoutesNeverTrap() throws {
        let door = MemberRights(rights: try routes().rights)
        var generator = SeededGenerator(#function)
        let pieces = ["api", "scores", "{id}", "annotations", "undo", "rehearsals", "session", "invitations", "", "..", "%2F", "7", "обj", "😀"]
        let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .head, .options]
        for _ in 0..<5_000 {
            let route = "/" + (0..<Int.random(in: 0...7, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }
                .joined(separator: "/")
            let method = methods.randomElement(using: &generator) ?? .get
            let answer = door.requirement(method, route: route)
            if [.get, .head, .options].contains(method) {
                XCTAssertNil(answer, route)
            } else if answer == nil {
                XCTAssertEqual(door.rights.right(method, route), .open, "only an open route needs nothing: \(method) \(route)")
            }
        }
    }
}
