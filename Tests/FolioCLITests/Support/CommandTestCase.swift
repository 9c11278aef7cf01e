import FolioTestSupport
import Foundation
import XCTest

/// A test of the `folio` binary in a fresh folder of its own (`root`), removed afterwards.
class CommandTestCase: XCTestCase, @unchecked Sendable {
    var root: URL!
    var folio: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-\(Self.self)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        folio = try TestEnvironment.folioBinary()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    /// A small library in the test's folder, scanned: two corpus scores under names in Czech and
    /// Russian (`Чайковский/Колыбельная.pdf`, `Chopin – Dešťová.pdf`). Returns its path.
    func twoScoreLibrary(named name: String) throws -> String {
        let folder = path(name)
        try FileManager.default.createDirectory(atPath: folder + "/Чайковский", withIntermediateDirectories: true)
        let scores = try SharedCorpus.folder().appendingPathComponent("scores")
        try TestEnvironment.copy(at: scores.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf"),
                                 to: URL(fileURLWithPath: folder + "/Чайковский/Колыбельная.pdf"))
        try TestEnvironment.copy(at: scores.appendingPathComponent("Chopin-Prelude_Op_28_No_15.pdf"),
                                 to: URL(fileURLWithPath: folder + "/Chopin – Dešťová.pdf"))
        try invoke(["library", "scan", folder])
        return folder
    }

    /// The file's SHA-256 as `sha256sum` prints it: what "byte-identical" is checked by.
    func sha256(_ path: String) throws -> String {
        String(decoding: try TestEnvironment.runTool("sha256sum", [path]).stdout, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    /// A file in the test's folder.
    func path(_ name: String) -> String { root.appendingPathComponent(name).path }

    /// Runs `folio` with `arguments`: its status, standard output and error; the status is
    /// asserted to be `expected` unless that is nil.
    @discardableResult
    func invoke(_ arguments: [String], status expected: Int32? = 0) throws -> (status: Int32, out: String, err: String) {
        try invoke(arguments, in: nil, status: expected)
    }

    /// ``invoke(_:status:)`` run in `directory` (nil: a fresh empty folder) with `environment` added.
    @discardableResult
    func invoke(_ arguments: [String], in directory: URL?, environment: [String: String] = [:],
                status expected: Int32? = 0) throws -> (status: Int32, out: String, err: String) {
        let result = try TestEnvironment.run(folio, arguments, environment: environment, directory: directory)
        let out = (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
        if let expected { XCTAssertEqual(out.0, expected, "folio \(arguments.joined(separator: " ")): \(out.2)") }
        return out
    }
}
