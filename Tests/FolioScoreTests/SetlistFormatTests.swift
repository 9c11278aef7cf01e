import FolioPDF
@testable import FolioScore
import Foundation
import XCTest

/// The 4SS codec (the seed's example, round trips, refusals), forScore's matching levels,
/// pasted-list parsing and the metadata keys of 4SB/4SC.
final class SetlistFormatTests: XCTestCase {
    func testTheSeedsExampleReads() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" ?>
            <forScore kind="setlist" version="1.0" title="My New Setlist">
            <score title="Score Title" path="filename.pdf" data="JVBERi0=" />
            <bookmark title="Bookmark Title" path="another_filename.pdf" />
            <placeholder title="A New Placeholder" />
            </forScore>
            """
        let setlist = try OpenSetlist(bytes: Array(xml.utf8))
        XCTAssertEqual(setlist.title, "My New Setlist")
        XCTAssertEqual(setlist.items, [
            .score(path: "filename.pdf", title: "Score Title", data: Array("%PDF-".utf8)),
            .bookmark(path: "another_filename.pdf", title: "Bookmark Title"),
            .placeholder(title: "A New Placeholder"),
        ])
    }

    func testRoundTripKeepsEveryCharacter() throws {
        let original = OpenSetlist(title: "Gig \"A\" & <B>\tnight", items: [
            .score(path: "Dvořák/Humoreska & Co.pdf", title: "Humoreska \"No. 7\"", data: nil),
            .score(path: "x.pdf", title: nil, data: Array(repeating: 0xFF, count: 100_000)),
            .bookmark(path: "Real Book.pdf", title: "Blue Bossa\n(head)"),
            .placeholder(title: "Encore <TBD>"),
        ])
        XCTAssertEqual(try OpenSetlist(bytes: original.xml()), original)
    }

    func testRefusals() {
        let cases = [
            "<!DOCTYPE x><forScore kind=\"setlist\" version=\"1.0\" title=\"t\"/>",
            "<forScore kind=\"setlist\" version=\"1.0\" title=\"t\"><score title=\"no path\"/></forScore>",
            "<forScore kind=\"setlist\" version=\"1.0\" title=\"t\"><placeholder/></forScore>",
            "<setlist kind=\"setlist\" version=\"1.0\" title=\"t\"/>",
            "<forScore kind=\"setlist\" version=\"1.0\" title=\"  \"/>",
            "<forScore kind=\"setlist\" version=\"1.0\" title=\"t\" note=\"\(String(repeating: "n", count: 70_000))\"/>",
        ]
        for xml in cases {
            XCTAssertThrowsError(try OpenSetlist(bytes: Array(xml.utf8)), xml.prefix(60).description) { error in
                XCTAssertNotNil(error as? ScoreError, "\(error)")
            }
        }
    }

    func testMatchingLevels() {
        let nfd = "Jazz/Réal Böok.pdf".decomposedStringWithCanonicalMapping
        let matcher = SetlistMatcher(scores: ["Brahms.pdf", "Other/brahms.pdf", nfd], bookmarks: [
            .init(path: nfd, title: "Autumn Leaves", start: 4, end: 5),
        ])
        XCTAssertEqual(matcher.score(path: "Brahms.pdf")?.level, .exact)
        XCTAssertEqual(matcher.score(path: "Brahms.pdf")?.path, "Brahms.pdf")
        // Two files are named brahms.pdf ignoring case: the full path that matched wins.
        XCTAssertEqual(matcher.score(path: "Other/brahms.pdf")?.path, "Other/brahms.pdf")
        XCTAssertEqual(matcher.score(path: "BRAHMS.PDF")?.level, .caseInsensitive)
        // The full path "Brahms.pdf" matches before the other file's name does.
        XCTAssertEqual(matcher.score(path: "BRAHMS.PDF")?.path, "Brahms.pdf")
        XCTAssertEqual(matcher.score(path: "x/BRAHMS.PDF")?.candidates, 2)
        XCTAssertEqual(matcher.score(path: "Réal Böok.pdf".precomposedStringWithCanonicalMapping)?.level, .exact)
        XCTAssertEqual(matcher.score(path: "real book.pdf")?.level, .diacritics)
        XCTAssertNil(matcher.score(path: "Missing.pdf"))
        XCTAssertEqual(matcher.bookmark(path: "Réal Böok.pdf", title: "Autumn Leaves")?.level, .exact)
        XCTAssertEqual(matcher.bookmark(path: "real book.pdf", title: "autumn leaves")?.level, .diacritics)
        XCTAssertEqual(matcher.bookmark(path: "Réal Böok.pdf", title: "AUTUMN LEAVES")?.level, .caseInsensitive)
        XCTAssertNil(matcher.bookmark(path: "Brahms.pdf", title: "Autumn Leaves"))
    }

    func testPastedListsAndFuzzyMatching() {
        let lines = SetlistText.parse("1. Autumn Leaves (Gm)\n\n2) Blue Bossa [Bb major]\n#3 Só Danço Samba\n• Take Five\n12\n")
        XCTAssertEqual(lines.map(\.query), ["Autumn Leaves", "Blue Bossa", "Só Danço Samba", "Take Five"])
        XCTAssertEqual(lines.map(\.key), ["Gm", "Bb major", nil, nil])
        let matcher = SetlistText(candidates: [
            .init(kind: .score, title: "Autumn Leaves", path: "a.pdf"),
            .init(kind: .bookmark, title: "So Danco Samba", path: "rb.pdf", start: 3, end: 4),
            .init(kind: .score, title: "Take the A Train", path: "t.pdf"),
            .init(kind: .score, title: "Blue Monk", path: "m.pdf"),
        ])
        // Diacritics missing in the library: a full match.
        XCTAssertEqual(matcher.match(lines[2]).best?.candidate.path, "rb.pdf")
        XCTAssertEqual(matcher.match(lines[2]).best?.confidence, 1)
        // A typo still matches, below certainty.
        let typo = matcher.match(SetlistText.parse("Autum Leafs")[0])
        XCTAssertEqual(typo.best?.candidate.path, "a.pdf")
        XCTAssertLessThan(typo.best?.confidence ?? 1, 1)
        // "Take Five" is not "Take the A Train": below the threshold, offered as an alternative.
        let five = matcher.match(lines[3])
        XCTAssertNil(five.best)
        XCTAssertEqual(five.alternatives.first?.candidate.path, "t.pdf")
        // Word order does not matter.
        XCTAssertEqual(matcher.match(SetlistText.parse("Leaves, Autumn")[0]).best?.candidate.path, "a.pdf")
    }

    func testLibraryDataKeys() throws {
        let name = "Dvořák – Humoreska.pdf".decomposedStringWithCanonicalMapping
        let dictionary: [String: Any] = [
            name + "|title": "Humoreska", name + "|composer": "Antonín Dvořák, Anon", name + "|genre": "Romantic",
            name + "|keywords": "gig, encore", name + "|labels": "red", name + "|rating": 4, name + "|difficulty": 2,
            name + "|minutes": 3, name + "|seconds": 5, name + "|key": "G flat major", name + "|bpm": 96,
            name + "|bookmarks": [["Title": "B", "First Page": 2, "Last Page": 0], ["Title": "C", "First Page": 3, "Last Page": 4]],
            name + "|2|textAnnotations": [["text": "rit.", "fontSize": 14, "color": "#ff0000", "frame": "{{0.1, 0.2}, {0.3, 0.05}}"]],
            name + "|1.png": Data([1, 2, 3]),
            "&SYS;setlists": ["Later", "First"], "&SYS;theme": "dark",
            "&SET;First": [["Title": "Humoreska", "FilePath": name], ["Title": "Gone"]],
            "&SET;Later": [["Title": "x", "FilePath": name, "Bookmark": "B", "First Page": 2, "Last Page": 2]],
            "stray": 1,
        ]
        let plist = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        let data = try ForScoreLibraryData(plist: Array(plist), source: "test")
        let file = try XCTUnwrap(data.files["Dvořák – Humoreska.pdf".precomposedStringWithCanonicalMapping])
        XCTAssertEqual(file.metadata.title, "Humoreska")
        XCTAssertEqual(file.metadata.composers, ["Antonín Dvořák", "Anon"])
        XCTAssertEqual(file.metadata.tags, ["gig", "encore"])
        XCTAssertEqual(file.metadata.rating, 4)
        XCTAssertEqual(file.metadata.duration, 185)
        XCTAssertEqual(file.metadata.key, try MusicalKey(parsing: "G flat major"))
        XCTAssertEqual(file.bookmarks.map { "\($0.title) \($0.first)-\($0.last)" }, ["B 2-2", "C 3-4"])
        XCTAssertEqual(file.textBoxes[2]?.first?.color, [1, 0, 0])
        XCTAssertEqual(file.textBoxes[2]?.first?.width, 0.3)
        XCTAssertEqual(file.drawings, [ForScoreLibraryData.Drawing(page: 1, layer: nil, png: [1, 2, 3])])
        XCTAssertEqual(data.setlists.map(\.title), ["Later", "First"])
        XCTAssertEqual(data.setlists[1].entries.map(\.kind), [.score, .placeholder])
        XCTAssertEqual(data.setlists[0].entries.first?.kind, .bookmark)
        XCTAssertEqual(data.settingsSkipped, 1)   // &SYS;setlists is read, &SYS;theme skipped
        XCTAssertEqual(file.metadata.tempo, 96)
        XCTAssertFalse(data.unread.contains { $0.contains("|bpm") })
        XCTAssertTrue(data.unread.contains { $0.hasPrefix("stray") })
        XCTAssertThrowsError(try ForScoreLibraryData(plist: Array("junk".utf8), source: "junk"))
    }
    func testMobileSheetsKeysAndRows() throws {
        // Every key MobileSheets is given reads back as the same key, in ASCII.
        for key in MusicalKey.all {
            let name = MobileSheetsCSV.keyName(key)
            XCTAssertTrue(name.allSatisfy(\.isASCII), name)
            XCTAssertEqual(try MusicalKey(parsing: name), key, name)
        }
        var score = ScoreMetadata(title: " Lead; \"Sheet\"\nTwo", composers: ["A"])
        score.rating = 3
        let page = Bookmark(name: "Solo", action: .page(index: 1), pages: 2...2, metadata: ScoreMetadata(composers: ["B"]))
        let rows = MobileSheetsCSV.rows(file: "x.pdf", score: score, bookmarks: [page]).components(separatedBy: "\r\n")
        XCTAssertEqual(rows[0], "\" Lead; \"\"Sheet\"\" Two\";x.pdf;;A;;;;;3;;;", "quoted, one line")
        XCTAssertEqual(rows[1], "Solo;x.pdf;2;B;;;;;3;;;", "a single page; own composer kept, rating inherited")
    }
}
