import FolioPDF
import Foundation
import XCTest

@testable import FolioScore

final class BookmarkTests: XCTestCase {
    func testOrders() {
        let a = Bookmark(id: "a", name: "A", action: .page(index: 5), sortKey: 2)
        let b = Bookmark(id: "b", name: "B", action: .url("https://example.com"), sortKey: 1)
        let c = Bookmark(id: "c", name: "C", action: .page(index: 1))
        let d = Bookmark(id: "d", name: "D", action: .page(index: 5))
        let e = Bookmark(id: "e", name: "E", action: .other("JavaScript"))
        let all = [a, b, c, d, e]
        XCTAssertEqual(BookmarkOrder.pageBased.sorted(all).map(\.id), ["c", "a", "d", "b", "e"],
                       "by page, stable, pageless at the end in their order")
        XCTAssertEqual(BookmarkOrder.custom.sorted(all).map(\.id), ["b", "a", "c", "d", "e"])
    }

    /// Takes only URL bookmarks: the first provider that accepts an add owns it.
    struct LinkProvider: BookmarkProvider {
        var bookmarks: [Bookmark] = []
        mutating func add(_ bookmark: Bookmark) -> Bool {
            guard case .url = bookmark.action else { return false }
            bookmarks.removeAll { $0.id == bookmark.id }
            bookmarks.append(bookmark)
            return true
        }
        mutating func remove(id: String) -> Bool {
            let before = bookmarks.count
            bookmarks.removeAll { $0.id == id }
            return bookmarks.count != before
        }
    }

    func testProviderChain() throws {
        let document = try PDFDocument(bytes: TestPDF.make(info: "<< >>", xmp: nil))
        var manager = BookmarkManager(providers: [LinkProvider(), XMPBookmarkProvider(document: document)])
        let link = Bookmark(id: "l", name: "IMSLP", action: .url("https://imslp.org"))
        var page = Bookmark(id: "p", name: "Coda", action: .page(index: 0))
        XCTAssertTrue(manager.add(link))
        XCTAssertTrue(manager.add(page))
        XCTAssertEqual(manager.providers[0].bookmarks.map(\.id), ["l"])
        XCTAssertEqual(manager.providers[1].bookmarks.map(\.id), ["p"])
        page.name = "Coda (da capo)"
        XCTAssertTrue(manager.add(page))
        XCTAssertEqual(manager.bookmarks.filter { $0.id == "p" }.map(\.name), ["Coda (da capo)"], "replaced, not added")
        XCTAssertTrue(manager.remove(id: "l"))
        XCTAssertFalse(manager.remove(id: "l"))
        XCTAssertEqual(manager.bookmarks.map(\.id), ["p"])
    }

    /// Apple Preview's items in all three forms, and Nutrient's JSON as its documentation shows it.
    private let packet = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:apple-preview="http://ns.apple.com/Preview/1.0/"
            xmlns:pspdf="http://pspdfkit.com/pdf/xmp/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
          <dc:format>application/pdf</dc:format>
          <apple-preview:Bookmarks><rdf:Seq>
            <rdf:li apple-preview:PageIndex="2" apple-preview:UUID="A1"/>
            <rdf:li><rdf:Description apple-preview:PageIndex="4" apple-preview:UUID="A2"/></rdf:li>
            <rdf:li rdf:parseType="Resource"><apple-preview:PageIndex>0</apple-preview:PageIndex><apple-preview:UUID>A3</apple-preview:UUID></rdf:li>
          </rdf:Seq></apple-preview:Bookmarks>
          <pspdf:Bookmarks>[{"action":{"actionType":"Goto","pageIndex":2},"name":"Allegro","uuid":"A1","color":"red"},
            {"action":{"actionType":"URI","uri":"https://imslp.org"},"name":"Source","uuid":"N2"}]</pspdf:Bookmarks>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """

    func testReadsPreviewAndNutrientForms() throws {
        let document = try PDFDocument(bytes: TestPDF.make(info: "<< >>", xmp: packet))
        let provider = XMPBookmarkProvider(document: document)
        let byID = Dictionary(uniqueKeysWithValues: provider.bookmarks.map { ($0.id, $0) })
        XCTAssertEqual(Set(byID.keys), ["A1", "A2", "A3", "N2"])
        XCTAssertEqual(byID["A1"]?.name, "Allegro", "one bookmark from both schemas")
        XCTAssertEqual(byID["A1"]?.action, .page(index: 2))
        XCTAssertEqual(byID["A2"]?.action, .page(index: 4))
        XCTAssertEqual(byID["A3"]?.action, .page(index: 0))
        XCTAssertEqual(byID["N2"]?.action, .url("https://imslp.org"))
    }

    func testWriteAndReadBackKeepsWhatFolioDoesNotKnow() throws {
        let path = try temporaryPDF(named: "book.pdf", info: "<< >>", xmp: packet)
        var piece = Bookmark(id: "F1", name: "Nocturne № 2", action: .page(index: 0), pages: 1...1)
        piece.metadata.composers = ["Frédéric Chopin"]
        piece.metadata.key = try MusicalKey(parsing: "Eb")
        piece.metadata.reference = "Henle p. 12"
        try PDFSaver.update(path: path) { document in
            var provider = XMPBookmarkProvider(document: document)
            XCTAssertTrue(provider.add(piece))
            XCTAssertTrue(provider.remove(id: "A2"))
            try provider.write(to: document)
        }
        let document = try PDFDocument(path: path)
        let provider = XMPBookmarkProvider(document: document)
        let byID = Dictionary(uniqueKeysWithValues: provider.bookmarks.map { ($0.id, $0) })
        XCTAssertEqual(Set(byID.keys), ["A1", "A3", "N2", "F1"])
        XCTAssertEqual(byID["F1"], piece)
        XCTAssertEqual(byID["A1"]?.name, "Allegro")
        let xmp = try XMPPacket(bytes: try XCTUnwrap(document.xmpPacket))
        XCTAssertEqual(xmp.text(XMPPacket.dc, "format"), "application/pdf", "other properties stay")
        let preview = xmp.structures(XMPBookmarkProvider.previewNamespace, "Bookmarks").compactMap {
            $0[XMPPacket.Name(namespace: XMPBookmarkProvider.previewNamespace, local: "UUID")]
        }
        XCTAssertEqual(Set(preview), ["A1", "A3", "F1"], "page bookmarks in Preview's list, same UUIDs")
        let json = try XCTUnwrap(xmp.text(XMPBookmarkProvider.nutrientNamespace, "Bookmarks"))
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        XCTAssertEqual(Set(list.compactMap { $0["uuid"] as? String }), ["A1", "A3", "N2", "F1"])
        XCTAssertEqual(list.first { $0["uuid"] as? String == "A1" }?["color"] as? String, "red", "unknown keys kept")
        XCTAssertEqual((list.first { $0["uuid"] as? String == "F1" }?["action"] as? [String: Any])?["pageIndex"] as? Int, 0)
    }

    func testCSVFileBesideThePDFAsASecondProvider() throws {
        XCTAssertEqual(CSVBookmarkProvider.path(besidePDF: "/scores/Real Book.pdf"), "/scores/Real Book.csv")
        let document = try PDFDocument(bytes: TestPDF.make(info: "<< >>", xmp: nil))
        let existing = "Title,Start\nAutumn Leaves,1\n"
        var manager = BookmarkManager(providers: [try CSVBookmarkProvider(text: existing, pageCount: 1),
                                                  XMPBookmarkProvider(document: document)])
        XCTAssertEqual(manager.bookmarks.map(\.name), ["Autumn Leaves"])
        XCTAssertTrue(manager.add(Bookmark(name: "Piece", action: .page(index: 0), pages: 1...1)))
        XCTAssertTrue(manager.add(Bookmark(name: "Mark", action: .page(index: 0))))
        XCTAssertEqual(manager.providers[0].bookmarks.map(\.name), ["Autumn Leaves", "Piece"], "ranges go to the CSV")
        XCTAssertEqual(manager.providers[1].bookmarks.map(\.name), ["Mark"], "the rest to the next provider")
        let csv = try XCTUnwrap(manager.providers[0] as? CSVBookmarkProvider)
        let again = try CSVBookmarkProvider(text: csv.text(fileName: "Real Book.pdf"), pageCount: 1)
        XCTAssertEqual(again.bookmarks.map(\.name), ["Autumn Leaves", "Piece"])
        XCTAssertEqual(again.bookmarks.map(\.pages), [1...1, 1...1])
        XCTAssertEqual(again.bookmarks.map(\.id), csv.bookmarks.map(\.id), "stored under the identifiers a reading derives")
        XCTAssertFalse(csv.bookmarks.map(\.id).contains { $0 == "" })
    }
}
