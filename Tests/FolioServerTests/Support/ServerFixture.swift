import FolioLibrary
import FolioPDF
import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// A library folder for one test: the bundled samples, with the Brahms retitled
/// "Canción de cuna" (diacritics to fold) and Greensleeves given a hostile title.
struct ServerFixture {
    static let hostile = "<script>alert('x')</script> & \"Ünïcode\""
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples")
        for name in try FileManager.default.contentsOfDirectory(atPath: samples.path) where name.hasSuffix(".pdf") {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        try PDFSaver.update(path: path("Brahms-Cancion_de_Cuna.pdf")) { document in
            try document.setInfo("Title", to: "Canción de cuna")
        }
        try PDFSaver.update(path: path("Traditional-Greensleeves_hymntune.pdf")) { document in
            try document.setInfo("Title", to: Self.hostile)
        }
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// A server over the folder, catalogued, without the rescan service.
    func server(access: AccessSecret? = nil, maxUpload: Int? = nil,
                configure: (inout LibraryServer.Options) -> Void = { _ in }) throws -> LibraryServer {
        let catalog = try LibraryCatalog(folder: folder.path)
        _ = try LibraryScanner(catalog: catalog).scan()
        var options = LibraryServer.Options()
        options.access = access
        options.rescanInterval = 0
        if let maxUpload { options.maxUpload = maxUpload }
        configure(&options)
        return try LibraryServer(catalog: catalog, options: options)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(buffer: response.body))
    }

    /// The library listing as the API answers it.
    struct Scores: Decodable { let scores: [ScoreService.Score] }

    /// The id of the first score a search for `query` finds.
    static func scoreID(_ client: some TestClientProtocol, query: String) async throws -> Int64 {
        let found = try await client.execute(uri: "/api/scores?q=\(query)", method: .get)
        return try XCTUnwrap(try decode(Scores.self, found).scores.first).id
    }

    /// The CSRF token a page hands out (meta tag) and its cookie, as request headers.
    static func csrf(_ client: some TestClientProtocol) async throws -> HTTPFields {
        let page = try await client.execute(uri: "/", method: .get)
        let html = String(buffer: page.body)
        guard let range = html.range(of: #"name="folio-csrf" content="([0-9a-f]+)""#, options: .regularExpression) else {
            XCTFail("no CSRF meta tag")
            return [:]
        }
        let token = html[range].split(separator: "\"")[3]
        XCTAssertTrue(page.headers[.setCookie]?.contains("folio_csrf=\(token)") == true)
        XCTAssertTrue(page.headers[.setCookie]?.contains("SameSite=Strict") == true)
        return [HTTPField.Name("X-Folio-CSRF")!: String(token), .cookie: "folio_csrf=\(token)"]
    }

    /// What a Python snippet prints, run with the files as `sys.argv[1]`… (pikepdf, PyMuPDF:
    /// readers nobody here wrote).
    static func python(_ code: String, _ files: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", code] + files
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HTTPError(.internalServerError, message: "python3 failed on \(files.joined(separator: ", ")): \(problem)")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A test case with a fresh ``ServerFixture`` for each test.
class ServerTestCase: XCTestCase, @unchecked Sendable {
    var fixture: ServerFixture!

    override func setUpWithError() throws {
        fixture = try ServerFixture()
    }

    override func tearDownWithError() throws {
        fixture.remove()
    }
}
