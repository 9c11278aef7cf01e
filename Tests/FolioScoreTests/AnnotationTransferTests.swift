import FolioPDF
import Foundation
import XCTest

@testable import FolioScore

/// Musical stamps and the annotation exchange format.
final class AnnotationTransferTests: XCTestCase {
    func testEveryMusicalSymbolHasArtAndANameThatLeadsBack() {
        var names = Set<String>()
        for symbol in MusicalSymbol.allCases {
            let art = symbol.art
            XCTAssertTrue(names.insert(art.name).inserted, "\(symbol): unique stamp name")
            XCTAssertEqual(MusicalSymbol(stampName: art.name), symbol)
            XCTAssertGreaterThan(art.width, 0)
            XCTAssertGreaterThan(art.height, 0)
            XCTAssertFalse(art.drawing.content.isEmpty, "\(symbol) draws something")
            XCTAssertEqual(MusicalSymbol.art(forStampName: art.name), art)
            if symbol.text != nil {
                XCTAssertEqual(Array(art.drawing.fonts.keys), ["TiBI"], "\(symbol): dynamics in Times Bold Italic")
            }
        }
        XCTAssertNil(MusicalSymbol(stampName: "Approved"), "other tools' stamps are not Folio's")
        for required in ["fermata", "breath", "caesura", "accent", "p", "mp", "mf", "f", "ff", "vs", "cresc"] {
            XCTAssertNotNil(MusicalSymbol(rawValue: required), required)
        }
    }

    func testExchangeFilesAreCheckedBeforeUse() throws {
        let valid = ##"{"format":"folio-annotations","version":1,"annotations":[{"page":1,"subtype":"Square","rect":[1,2,30,40],"color":"#ff0000"}]}"##
        let document = try AnnotationTransfer.read(Data(valid.utf8))
        XCTAssertEqual(document.annotations.first?.rect, [1, 2, 30, 40])
        let refusals: [(String, String)] = [
            ("not json", "not JSON"),
            (#"{"format":"xfdf","version":1,"annotations":[]}"#, "valid: folio-annotations version 1"),
            (#"{"format":"folio-annotations","version":1,"annotations":[{"page":"1","subtype":"Ink","rect":[]}]}"#, "annotations[0].page"),
            (#"{"format":"folio-annotations","version":1}"#, "annotations"),
        ]
        for (text, message) in refusals {
            XCTAssertThrowsError(try AnnotationTransfer.read(Data(text.utf8)), text) { error in
                XCTAssertTrue((error as? ScoreError)?.message.contains(message) == true, "\(text): \(error)")
            }
        }
        XCTAssertThrowsError(try AnnotationTransfer.read(Data(count: AnnotationTransfer.maxBytes + 1))) { error in
            XCTAssertEqual((error as? ScoreError)?.code, .outOfRange)
        }
        let badColour = #"{"format":"folio-annotations","version":1,"annotations":[{"page":1,"subtype":"Square","rect":[1,2,30,40],"color":"blue"}]}"#
        let parsed = try AnnotationTransfer.read(Data(badColour.utf8))
        XCTAssertThrowsError(try AnnotationTransfer.draft(for: parsed.annotations[0])) { error in
            XCTAssertTrue((error as? ScoreError)?.message.contains("#RRGGBB") == true)
        }
    }
}
