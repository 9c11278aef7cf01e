import Foundation
import XCTest

/// The engine stays inside: the shells reach PDF files through FolioScore and FolioLibrary,
/// and import FolioPDF only in the commands about PDF internals. With MemberImportVisibility
/// on for both shells, a file that does not import FolioPDF cannot call the engine's members,
/// so the imports below are the whole of the shells' contact with it.
final class LayeringTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Swift files under `folder` (relative to the repository) with the line `line`.
    private func files(under folder: String, containing line: String) throws -> [String] {
        try files(under: folder) { $0 == line }
    }

    /// The Swift files under `folder` with a line (trimmed) that `matches`.
    private func files(under folder: String, where matches: (String) -> Bool) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else {
            XCTFail("no folder \(base.path)")
            return []
        }
        var found: [String] = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
            if text.split(separator: "\n").contains(where: { matches($0.trimmingCharacters(in: .whitespaces)) }) {
                found.append(relative)
            }
        }
        return found.sorted()
    }

    func testTheShellsImportTheEngineOnlyForPDFInternals() throws {
        XCTAssertEqual(try files(under: "Sources/folio", containing: "import FolioPDF"), [
            "Bookmarks/TocEditCommands.swift", "PDF/CheckCommand.swift", "PDF/InfoCommand.swift",
            "PDF/RewriteCommand.swift", "PDF/SetInfoCommand.swift",
            "Support/SaveFlags.swift",   // how a PDF is saved (SaveOptions), --force over a read-only mode included
        ])
        XCTAssertEqual(try files(under: "Sources/FolioServer", containing: "import FolioPDF"), [])
    }

    func testNoLayerHandsTheEngineOn() throws {
        for folder in ["Sources/FolioScore", "Sources/FolioLibrary", "Sources/FolioServer", "Sources/folio"] {
            // A scoped re-export (`@_exported import struct FolioPDF.X`) hands on the whole module too.
            let reexports = try files(under: folder) { $0.hasPrefix("@_exported import") && $0.contains("FolioPDF") }
            XCTAssertEqual(reexports, [], "\(folder) re-exports the engine")
        }
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        XCTAssertEqual(manifest.components(separatedBy: "enableUpcomingFeature(\"MemberImportVisibility\")").count - 1, 2,
                       "MemberImportVisibility is on for folio and FolioServer")
    }
}
