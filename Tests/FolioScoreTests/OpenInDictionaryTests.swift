import Foundation
import XCTest

@testable import FolioScore

final class OpenInDictionaryTests: XCTestCase {
    /// The seed's own example (forscore-open-in.txt), as JSON.
    private let seedJSON = """
        {"title": "Nocturne Op. 90 № 2", "composers": "Frédéric Chopin", "genres": "My Genre", "tags": "My Tag",
         "labels": "Label One, Label Two, Label Three", "difficulty": 2, "rating": 5, "duration": 72,
         "keysf": 0, "keymi": 0}
        """

    private func edit(_ text: String) throws -> (ScoreEdit, [String]) {
        try OpenInDictionary.edit(from: Data(text.utf8))
    }

    private func assertError(_ text: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try edit(text), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(message), "\(error)", file: file, line: line)
        }
    }

    func testSeedExample() throws {
        let (edit, warnings) = try edit(seedJSON)
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(edit.title, "Nocturne Op. 90 № 2")
        XCTAssertEqual(edit.composers, ["Frédéric Chopin"])
        XCTAssertEqual(edit.genres, ["My Genre"])
        XCTAssertEqual(edit.tags, ["My Tag"])
        XCTAssertEqual(edit.labels, ["Label One", "Label Two", "Label Three"])
        XCTAssertEqual(edit.difficulty, 2)
        XCTAssertEqual(edit.rating, 5)
        XCTAssertEqual(edit.duration, 72)
        XCTAssertEqual(edit.key?.name, "C major")
    }

    func testXMLAndBinaryPropertyLists() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>title</key><string>Nocturne Op. 90 № 2</string>
            <key>composers</key><string> Frédéric Chopin ,, </string>
            <key>rating</key><string>4</string>
            <key>keysf</key><string>-3</string><key>keymi</key><integer>1</integer>
            </dict></plist>
            """
        let (fromXML, _) = try edit(xml)
        XCTAssertEqual(fromXML.title, "Nocturne Op. 90 № 2")
        XCTAssertEqual(fromXML.composers, ["Frédéric Chopin"], "trimmed, empty items dropped")
        XCTAssertEqual(fromXML.rating, 4, "a digit-only string is a number")
        XCTAssertEqual(fromXML.key?.name, "C minor")

        let binary = try PropertyListSerialization.data(
            fromPropertyList: ["title": "Bin", "duration": 272, "tags": ["A", " B "]] as [String: Any],
            format: .binary, options: 0)
        XCTAssertTrue(binary.starts(with: Array("bplist".utf8)))
        let (fromBinary, _) = try OpenInDictionary.edit(from: binary)
        XCTAssertEqual(fromBinary.title, "Bin")
        XCTAssertEqual(fromBinary.duration, 272)
        XCTAssertEqual(fromBinary.tags, ["A", "B"], "an array of strings is accepted too")
    }

    func testFieldsNotInTheDictionaryStayUntouched() throws {
        let (edit, _) = try edit(#"{"rating": 1}"#)
        XCTAssertEqual(edit.changedFields, [.rating])
    }

    func testBadValuesAreClearErrors() {
        assertError(#"{"rating": 9}"#, "rating 9 is out of range (valid: 0 to 5)")
        assertError(#"{"difficulty": "7"}"#, "difficulty 7 is out of range (valid: 0 to 3)")
        assertError(#"{"keysf": 8}"#, "valid: -7 to 7")
        assertError(#"{"keymi": 1}"#, "keymi is given without keysf")
        assertError(#"{"rating": 2.5}"#, "'rating' must be a whole number from 0 to 5")
        assertError(#"{"rating": "two"}"#, "found the string 'two'")
        assertError(#"{"duration": true}"#, "found the boolean true")
        assertError(#"{"duration": -1}"#, "out of range")
        assertError(#"{"title": 5}"#, "'title' must be a string")
        assertError(#"{"composers": {"name": "Bach"}}"#, "found a dictionary")
        assertError(#"["title"]"#, "does not hold a dictionary")
        assertError(#"{"title": "#, "not a valid JSON dictionary")
        let plist = """
            <plist version="1.0"><dict><key>composers</key><dict><key>a</key><string>b</string></dict></dict></plist>
            """
        assertError(plist, "'composers' must be a string of comma-separated values or an array of strings; found a dictionary")
    }

    func testUnknownKeysAreWarnings() throws {
        let (_, warnings) = try edit(#"{"title": "T", "colour": "red"}"#)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("colour"))
    }

    func testHostileInputIsBounded() {
        let huge = Data("{\"title\": \"".utf8) + Data(repeating: 0x41, count: OpenInDictionary.maxBytes) + Data("\"}".utf8)
        XCTAssertThrowsError(try OpenInDictionary.edit(from: huge)) { error in
            XCTAssertTrue("\(error)".contains("at most"), "\(error)")
        }
        // Entity expansion: an internal DTD subset is refused by the property-list parser.
        let laughs = """
            <?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
            <plist version="1.0"><dict><key>title</key><string>&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;</string></dict></plist>
            """
        XCTAssertThrowsError(try edit(laughs)) { error in
            XCTAssertTrue("\(error)".contains("not a valid property list dictionary"), "\(error)")
        }
    }

    func testExportReadsBackAsTheSameEdit() throws {
        var score = ScoreMetadata(title: "Nocturne Op. 90 № 2", composers: ["Frédéric Chopin"], genres: ["Romantic"],
                                  tags: ["My Tag", "Recital"], labels: ["Label One"], rating: 5, difficulty: 2,
                                  duration: 72)
        score.key = try MusicalKey(parsing: "G# minor")
        for format in OpenInDictionary.Format.allCases {
            let data = try OpenInDictionary.export(score, as: format)
            let (edit, warnings) = try OpenInDictionary.edit(from: data)
            XCTAssertEqual(warnings, [], "\(format)")
            XCTAssertEqual(edit.applied(to: ScoreMetadata()), score, "\(format)")
        }
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: OpenInDictionary.export(score, as: .json)) as? [String: Any])
        XCTAssertEqual(json["composers"] as? String, "Frédéric Chopin", "lists travel as comma-separated strings")
        XCTAssertEqual(json["rating"] as? Int, 5, "numbers as numbers")
        XCTAssertEqual(json["keysf"] as? Int, 5)
        XCTAssertEqual(json["keymi"] as? Int, 1)
        let empty = try XCTUnwrap(try JSONSerialization.jsonObject(with: OpenInDictionary.export(ScoreMetadata(), as: .json))
            as? [String: Any])
        XCTAssertTrue(empty.isEmpty, "absent fields are left out")
    }

    func testDefaultTitleIsTheFileName() {
        XCTAssertEqual(OpenInDictionary.defaultTitle(forFile: "/scores/Clair de Lune.PDF"), "Clair de Lune")
        XCTAssertEqual(OpenInDictionary.defaultTitle(forFile: "notes.txt"), "notes.txt")
    }
}
