import FolioTestSupport
import Foundation
import XCTest

/// `folio library migrate --to`: the built binary moves a library's catalog to PostgreSQL and
/// back; every command then finds the catalog where the folder says (`.folio/catalog`), the
/// password only from the environment's file; refusals keep their exit codes (docs/library.md).
final class LibraryMigrateCommandTests: CommandTestCase, @unchecked Sendable {
    func testTheCatalogMovesToPostgreSQLAndBackThroughTheCommand() throws {
        let server = try TestPostgres.shared()
        let database = try server.newDatabase(prefix: "sbírka")
        defer { server.dropDatabase(database) }
        let url = server.url(database: database)
        let folder = try twoScoreLibrary(named: "Noty – 楽譜")
        try invoke(["setlist", "create", "Koncert – 演奏会", "--library", folder])
        try invoke(["setlist", "add", "Koncert – 演奏会", "Chopin – Dešťová.pdf", "--library", folder])
        let listed = { try self.invoke(["library", "list", "--library", folder, "--json"], in: nil, environment: $0).out }
        let before = try listed([:])
        let setlist = try invoke(["setlist", "show", "Koncert – 演奏会", "--library", folder]).out

        // A password on the command line is refused, and not repeated.
        let withPassword = url.replacingOccurrences(of: "folio@", with: "folio:\(server.password)@")
        let refused = try invoke(["library", "migrate", "--to", withPassword, "--library", folder], status: 64)
        XCTAssertFalse(refused.err.contains(server.password), refused.err)

        let password = [CatalogVariables.passwordFile: server.passwordFile]
        // A dry run copies and compares, then leaves the database empty and the folder as it was.
        let tried = try invoke(["library", "migrate", "--to", url, "--library", folder, "--dry-run"], in: nil, environment: password)
        XCTAssertTrue(tried.out.hasPrefix("would move the catalog"), tried.out)
        XCTAssertTrue(tried.out.contains("score 2"), tried.out)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM score", database: database), "0")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/.folio/catalog"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/.folio/library.sqlite.before-postgresql"))
        let moved = try invoke(["library", "migrate", "--to", url, "--library", folder], in: nil, environment: password)
        XCTAssertTrue(moved.out.contains("every row compared"), moved.out)
        XCTAssertTrue(moved.out.contains("score 2"), moved.out)
        let marker = try String(contentsOfFile: folder + "/.folio/catalog", encoding: .utf8).trimmingCharacters(in: .newlines)
        XCTAssertEqual(marker.removingPercentEncoding, url.removingPercentEncoding, "the address, as typed or encoded")
        XCTAssertFalse(marker.contains(server.password))
        XCTAssertEqual(try server.psql("SELECT count(*) FROM score", database: database), "2")
        XCTAssertEqual(try listed(password), before)
        XCTAssertEqual(try invoke(["setlist", "show", "Koncert – 演奏会", "--library", folder], in: nil, environment: password).out, setlist)
        XCTAssertTrue(try invoke(["library", "search", "колыбельная", "--library", folder], in: nil, environment: password).out.contains("Колыбельная"))
        // Without the password the catalog cannot be reached: 69, the address named, no path of a secret.
        let away = try invoke(["library", "list", "--library", folder], status: 69)
        XCTAssertTrue(away.err.contains("127.0.0.1"), away.err)
        // A second move into the same database: refused (it holds the catalog), the library unchanged.
        try invoke(["library", "migrate", "--to", url, "--library", folder], in: nil, environment: password, status: 64)

        let back = try invoke(["library", "migrate", "--to", "sqlite", "--library", folder], in: nil, environment: password)
        XCTAssertTrue(back.out.contains("to sqlite:"), back.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/.folio/catalog"))
        XCTAssertEqual(try listed([:]), before)
        XCTAssertEqual(try invoke(["setlist", "show", "Koncert – 演奏会", "--library", folder]).out, setlist)
        try invoke(["library", "migrate", "--to", "mysql://x", "--library", folder], status: 64)
    }
}

/// The environment variables the catalog's password is read from (`CatalogLocation`'s).
enum CatalogVariables {
    static let passwordFile = "FOLIO_CATALOG_PASSWORD_FILE"
}
