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
                    // 401, or the login page's address in a library with members.
                    XCTAssertTrue([.unauthorized, .notFound, .seeOther].contains(refused.status), "\(path): \(refused.status)")
                    if refused.status == .seeOther { XCTAssertTrue(refused.headers[.location]?.hasPrefix("/login") ?? false) }
                    XCTAssertFalse(String(buffer: refused.body).contains("Brahms"), path)
                }
            }
        }
    }

    func testALibraryGoneFromUnderTheServerIsUnhealthyUntilItIsBack() async throws {
        let server = try fixture.server(access: .token(String(repeating: "ab", count: 16)))
        try await Application(router: server.router()).test(.router) { client in
            let healthy = try await client.execute(uri: "/healthz", method: .get)
            XCTAssertEqual(healthy.status, .ok)
            // The volume unmounted (the folder moved away), then back.
            let away = fixture.folder.deletingLastPathComponent().appendingPathComponent("away-\(UUID().uuidString)")
            try FileManager.default.moveItem(at: fixture.folder, to: away)
            let sick = try await client.execute(uri: "/healthz", method: .get)
            try FileManager.default.moveItem(at: away, to: fixture.folder)
            XCTAssertEqual(sick.status, .serviceUnavailable)
            XCTAssertEqual(String(buffer: sick.body), "the library cannot be served: the library's folder is gone\n")
            XCTAssertEqual(sick.headers[.retryAfter], "5")
            XCTAssertFalse(String(buffer: sick.body).contains(fixture.folder.lastPathComponent), "the answer names no path")
            let back = try await client.execute(uri: "/healthz", method: .get)
            XCTAssertEqual(back.status, .ok, "healthy again once it is back")
            // The catalog's file removed: the catalog is gone.
            let database = LibraryCatalog.defaultDatabasePath(folder: fixture.folder.path)
            try FileManager.default.moveItem(atPath: database, toPath: database + ".moved")
            let noCatalog = try await client.execute(uri: "/healthz", method: .get)
            try FileManager.default.moveItem(atPath: database + ".moved", toPath: database)
            XCTAssertEqual(noCatalog.status, .serviceUnavailable)
            XCTAssertEqual(String(buffer: noCatalog.body), "the library cannot be served: the catalog's file is gone\n")
            XCTAssertEqual(noCatalog.headers[.retryAfter], "5")
        }
    }
}
