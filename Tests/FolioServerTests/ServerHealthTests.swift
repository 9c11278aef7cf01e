import FolioLibrary
import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// `/healthz`, what a container's health check and a service manager ask: 200 without any
/// credentials while the catalog answers, 503 once it cannot be read, and nothing else opened.
final class ServerHealthTests: ServerTestCase, @unchecked Sendable {
    func testHealthAnswersWithoutCredentialsAndOpensNothingElse() async throws {
        for access in [AccessSecret.token(String(repeating: "5eed", count: 8)), .password("Пароль-Größe-8"), .members, nil] {
            try await Application(router: try fixture.server(access: access).router()).test(.router) { client in
                for method in [HTTPRequest.Method.get, .head] {
                    let health = try await client.execute(uri: "/healthz", method: method)
                    XCTAssertEqual(health.status, .ok, "\(String(describing: access)) \(method)")
                    XCTAssertEqual(health.headers[.cacheControl], "no-store")
                    if method == .get { XCTAssertEqual(String(buffer: health.body), "ok\n") }
                }
                // Only that path: its neighbours and the library stay closed.
                for path in ["/healthz/x", "/api/scores", "/api/scores/1/file"] where access != nil {
                    let refused = try await client.execute(uri: path, method: .get)
                    XCTAssertTrue([.unauthorized, .notFound].contains(refused.status), "\(path): \(refused.status)")
                    XCTAssertFalse(String(buffer: refused.body).contains("Brahms"), path)
                }
            }
        }
    }

    func testACatalogThatCannotBeReadIsUnhealthy() async throws {
        let server = try fixture.server(access: .token(String(repeating: "ab", count: 16)))
        try await Application(router: server.router()).test(.router) { client in
            let healthy = try await client.execute(uri: "/healthz", method: .get)
            XCTAssertEqual(healthy.status, .ok)
            // The catalog's file replaced by something that is not a database (a disk gone bad).
            let database = LibraryCatalog.defaultDatabasePath(folder: fixture.folder.path)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: database))
            let sick = try await client.execute(uri: "/healthz", method: .get)
            XCTAssertEqual(sick.status, .serviceUnavailable)
            XCTAssertTrue(String(buffer: sick.body).hasPrefix("the catalog cannot be read"), String(buffer: sick.body))
        }
    }
}
