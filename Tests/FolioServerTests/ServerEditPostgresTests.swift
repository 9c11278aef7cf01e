import FolioLibrary
import FolioTestSupport
import Foundation
import XCTest

/// Every test of ``ServerEditTests`` again with the library's catalog in PostgreSQL, as a
/// library moved there by `folio library migrate` is served: the folder's `.folio/catalog`
/// names the database, the password comes from the file the environment names. Metadata,
/// marks, stamps, the contents, page tools and undo go through the server the same way.
final class ServerEditPostgresTests: ServerEditTests, @unchecked Sendable {
    private var server: TestPostgres!
    private var database: String?

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestPostgres.shared()
        let made = try server.newCatalog(prefix: "server")
        database = made.name
        let marker = fixture.folder.appendingPathComponent(LibraryCatalog.locationFile)
        try FileManager.default.createDirectory(at: marker.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((made.address.description + "\n").utf8).write(to: marker)
        setenv(CatalogLocation.passwordFileVariable, server.passwordFile, 1)
    }

    override func tearDownWithError() throws {
        unsetenv(CatalogLocation.passwordFileVariable)
        if let database { server.dropDatabase(database) }
        try super.tearDownWithError()
    }

    /// The count is PostgreSQL's, read by `psql`; the SQLite file beside holds no score.
    override func testEverySaveRefreshesTheCatalog() async throws {
        let (server, database) = (try XCTUnwrap(server), try XCTUnwrap(database))
        try await checkEverySaveRefreshesTheCatalog {
            try server.psql("SELECT annotationCount FROM score WHERE path = 'Brahms-Cancion_de_Cuna.pdf'", database: database)
        }
        XCTAssertEqual(try ServerFixture.python("""
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM score").fetchone()[0])
            """, fixture.folder.appendingPathComponent(".folio/library.sqlite").path), "0")
    }
}
