import FolioTestSupport
import Foundation
import XCTest

@testable import FolioScore

/// The file-level operations the shells call: opening a score, one saved edit, the table of
/// contents replaced and read, bookmarks through the chain, page labels. Fixtures are made
/// here (a one-page PDF, repeated by qpdf) and what Folio writes is read back by pikepdf.
final class ScoreFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try TestPDF.directory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A PDF of `pages` pages: Folio's one-page fixture repeated by qpdf.
    private func score(_ name: String, pages: Int) throws -> String {
        try TestPDF.pages(pages, named: name, in: folder, info: "<< /Title (Ma vlast) >>")
    }

    private func python(_ script: String, _ arguments: [String]) throws -> Any {
        let run = try TestEnvironment.runTool("python3", ["-c", script] + arguments)
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        return try JSONSerialization.jsonObject(with: run.stdout)
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func testAnEditThatFailsWritesNothing() throws {
        let path = try score("Dvořák.pdf", pages: 3)
        let before = try bytes(path)
        struct Refused: Error {}
        XCTAssertThrowsError(try ScoreFile(path).update { document in
            try ScorePages.setLabels("i-iii", in: document)
            throw Refused()
        })
        XCTAssertEqual(try bytes(path), before)
        // A bad value from an operation: the same.
        XCTAssertThrowsError(try ScoreFile(path).update { try ScorePages.setLabels("i-iv,zz-", in: $0) })
        XCTAssertEqual(try bytes(path), before)
    }

    func testTableOfContentsFromAnIndexAsPikepdfReadsIt() throws {
        let path = try score("Smetana – Má vlast.pdf", pages: 6)
        let index = "Title,Start Page\nVyšehrad,1\nVltava,3\nŠárka,5\nΣυμφωνία,99\n"
        // A row it cannot use refuses the whole index (partial application is not success)…
        let untouched = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try ScoreFile(path).update { try TableOfContents.replace(in: $0, with: Data(index.utf8)) }) { error in
            XCTAssertTrue("\(error)".contains("nothing was changed (1 of 4 rows cannot be used)"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), untouched)
        // …unless the valid rows are asked for.
        let problems = try ScoreFile(path).update { document in
            try TableOfContents.replace(in: document, with: Data(index.utf8), skipInvalid: true)
        }
        XCTAssertEqual(problems.count, 1, "the row past the last page is skipped: \(problems)")
        XCTAssertTrue(problems.first?.contains("skipped") ?? false)
        let pike = try python("""
            import json, sys, pikepdf
            with pikepdf.open(sys.argv[1]) as pdf:
                with pdf.open_outline() as outline:
                    print(json.dumps([[item.title, pdf.pages.index(item.destination[0]) + 1] for item in outline.root]))
            """, [path]) as? [[Any]]
        let entries = TableOfContents.entries(of: try ScoreFile(path).open())
        XCTAssertEqual(entries.map(\.title), pike?.compactMap { $0.first as? String })
        XCTAssertEqual(entries.map(\.page), pike?.map { $0.last as? Int })
        XCTAssertEqual(entries.map(\.title), ["Vyšehrad", "Vltava", "Šárka"])
        XCTAssertEqual(entries.map(\.destination), ["page 1", "page 3", "page 5"])
        // forScore's reading of it: each piece runs to the page before the next.
        XCTAssertEqual(TableOfContents.bookmarks(of: try ScoreFile(path).open()).map { [$0.start, $0.end] },
                       [[1, 2], [3, 4], [5, 6]])

        // JSON replaces it; an entry out of range is refused and nothing is written.
        let json = #"[{"title": "Ελεγεία", "page": 2}, {"title": "Эпилог", "level": 1, "uri": "https://example.org/эпилог"}]"#
        try ScoreFile(path).update { try TableOfContents.replace(in: $0, with: Data(json.utf8)) }
        let replaced = TableOfContents.entries(of: try ScoreFile(path).open())
        XCTAssertEqual(replaced.map(\.title), ["Ελεγεία", "Эпилог"])
        XCTAssertEqual(replaced.map(\.level), [0, 1])
        XCTAssertEqual(replaced.last?.uri, "https://example.org/эпилог")
        let before = try bytes(path)
        XCTAssertThrowsError(try ScoreFile(path).update {
            try TableOfContents.replace(in: $0, with: Data(#"[{"title": "Coda", "page": 7}]"#.utf8))
        }) { error in
            XCTAssertTrue("\(error)".contains("valid: 1 to 6"), "\(error)")
        }
        XCTAssertEqual(try bytes(path), before)
    }

    func testBookmarksFromTheTOCThroughTheChainIntoAnIndex() throws {
        let path = try score("Janáček.pdf", pages: 4)
        try ScoreFile(path).update { document in
            try TableOfContents.replace(in: document, with: Data("Title,Start Page\nJenůfa,1\nKáťa Kabanová,3\n".utf8))
        }
        let index = folder.appendingPathComponent("Janáček.csv").path
        // An index whose one row cannot be read: reported, skipped, the rest kept.
        try Data("Filename,Title,Start Page (Bookmark),End Page (Bookmark)\nJanáček.pdf,Liška,x,y\n".utf8)
            .write(to: URL(fileURLWithPath: index))
        var problems: [String] = []
        let added = try BookmarkChain.update(ScoreFile(path), index: index, problem: { problems.append($0) }) { manager, document in
            let missing = TableOfContents.missingBookmarks(of: document, existing: manager.bookmarks)
            for piece in missing { manager.add(piece.bookmark) }
            return missing.count
        }
        XCTAssertEqual(added, 2)
        XCTAssertEqual(problems.count, 1, "\(problems)")
        let text = try String(contentsOfFile: index, encoding: .utf8)
        XCTAssertTrue(text.contains("Káťa Kabanová,3,4"), text)
        XCTAssertTrue(text.contains("Jenůfa,1,2"), text)
        // Read back through the chain; a second run adds nothing.
        let (chain, _) = try BookmarkChain.read(ScoreFile(path), index: index)
        XCTAssertEqual(chain.manager.bookmarks(in: .pageBased).compactMap(\.name), ["Jenůfa", "Káťa Kabanová"])
        let again = try BookmarkChain.update(ScoreFile(path), index: index) { manager, document in
            TableOfContents.missingBookmarks(of: document, existing: manager.bookmarks).count
        }
        XCTAssertEqual(again, 0)
    }

    func testPageLabelsAsPikepdfComputesThem() throws {
        let path = try score("Книга.pdf", pages: 6)
        try ScoreFile(path).update { try ScorePages.setLabels("i-ii,1-", in: $0) }
        let pike = try python("""
            import json, sys, pikepdf
            with pikepdf.open(sys.argv[1]) as pdf:
                print(json.dumps([page.label for page in pdf.pages]))
            """, [path]) as? [String]
        let labels = ScorePages.labels(of: try ScoreFile(path).open())
        XCTAssertEqual(labels, pike)
        XCTAssertEqual(labels, ["i", "ii", "1", "2", "3", "4"])
        try ScoreFile(path).update { try ScorePages.setLabels(nil, in: $0) }
        XCTAssertEqual(ScorePages.labels(of: try ScoreFile(path).open()), (1...6).map(String.init))
    }

    func testOpeningAsASourceOfPages() throws {
        let path = try score("Чайковский.pdf", pages: 2)
        let locked = folder.appendingPathComponent("Чайковский-locked.pdf").path
        let run = try TestEnvironment.runTool("qpdf", ["--encrypt", "квартет", "owner", "256", "--", path, locked])
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))

        XCTAssertEqual(try ScoreFile(path).openAsSource(decrypt: false).pageCount, 2)
        func failure(_ body: () throws -> Any) -> ScoreError? {
            do { _ = try body() } catch let error as ScoreError { return error } catch { XCTFail("\(error)") }
            return nil
        }
        let unasked = failure { try ScoreFile(locked, password: "квартет").openAsSource(decrypt: false) }
        XCTAssertEqual(unasked?.kind, .invalidValue)
        XCTAssertTrue(unasked?.message.contains("--decrypt") ?? false)
        let wrong = failure { try ScoreFile(locked, password: "quartet").openAsSource(decrypt: true) }
        XCTAssertEqual(wrong?.kind, .invalidValue)
        XCTAssertTrue(wrong?.message.hasPrefix(locked) ?? false)
        XCTAssertEqual(try ScoreFile(locked, password: "квартет").openAsSource(decrypt: true).pageCount, 2)

        let damaged = folder.appendingPathComponent("Ηχοι.pdf").path
        try Data("%PDF-1.7\nnot a PDF after all".utf8).write(to: URL(fileURLWithPath: damaged))
        let unreadable = failure { try ScoreFile(damaged).openAsSource(decrypt: false) }
        XCTAssertEqual(unreadable?.kind, .unreadable)
        XCTAssertTrue(unreadable?.message.hasPrefix(damaged) ?? false)
    }
}
