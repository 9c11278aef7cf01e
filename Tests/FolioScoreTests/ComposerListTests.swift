import FolioScore
import XCTest

/// Composers as people: lists split at ";", each person once; a piece's title names its composer.
final class ComposerListTests: XCTestCase {
    func testListsSplitIntoPeople() {
        XCTAssertEqual(ComposerList.people(["Erik Satie; Ludwig van Beethoven ;Frédéric Chopin", "frederic chopin", " ; "]),
                       ["Erik Satie", "Ludwig van Beethoven", "Frédéric Chopin"])
        XCTAssertEqual(ComposerList.people(["Пётр Чайковский", "Антонин Дворжак; 滝廉太郎"]),
                       ["Пётр Чайковский", "Антонин Дворжак", "滝廉太郎"])
        XCTAssertEqual(ComposerList.people([]), [])
    }

    func testATitleNamesItsComposer() {
        let book = ["Erik Satie", "Ludwig van Beethoven", "Frédéric Chopin", "Пётр Чайковский"]
        XCTAssertEqual(ComposerList.named(in: "Gymnopédie No. 1 — Satie", among: book), ["Erik Satie"])
        XCTAssertEqual(ComposerList.named(in: "Nocturne (CHOPIN)", among: book), ["Frédéric Chopin"])
        XCTAssertEqual(ComposerList.named(in: "Чайковский: Осенняя песня", among: book), ["Пётр Чайковский"])
        XCTAssertEqual(ComposerList.named(in: "Für Elise — Ludwig van Beethoven", among: book), ["Ludwig van Beethoven"])
        XCTAssertEqual(ComposerList.named(in: "Intermezzo", among: book), [])
        // A surname inside another word is no match ("Chopinesque" is not Chopin's).
        XCTAssertEqual(ComposerList.named(in: "Valse chopinesque", among: book), [])
    }
}
