import FolioPDF
@testable import FolioScore
import Foundation
import XCTest

/// The one description of a score's fields: every form derived from ``ScoreField`` — the
/// subscript, the JSON form, ``ScoreEdit``, the Open In dictionary — agrees with the
/// stored properties, field by field, so a field added to the table reaches them all.
final class ScoreFieldTests: XCTestCase {
    /// A score with every field set, in several scripts.
    private let full = ScoreMetadata(
        title: "Má vlast — Vltava", composers: ["Bedřich Smetana"], genres: ["Симфоническая поэма"],
        tags: ["交響詩", "Ελληνικά"], labels: ["קונצרט"], rating: 4, difficulty: 2, duration: 754,
        key: try? MusicalKey(parsing: "E minor"), reference: "JB 1:112/2 — مرجع", tempo: 132, timeSignature: "6/8")

    func testEveryFieldIsReachedThroughTheTable() throws {
        XCTAssertEqual(full.setFields, ScoreField.allCases, "the fixture sets every field")
        var rebuilt = ScoreMetadata()
        for field in ScoreField.allCases {
            let value = try XCTUnwrap(full[field], field.rawValue)
            switch (field.kind, value) {
            case (.text, .text), (.list, .list), (.number, .number), (.key, .key): break
            default: XCTFail("\(field) holds \(value), not a \(field.kind)")
            }
            rebuilt[field] = value
        }
        XCTAssertEqual(rebuilt, full, "setting each field through the table rebuilds the score")
        for field in ScoreField.allCases {
            var emptied = full
            emptied[field] = nil
            XCTAssertNil(emptied[field], field.rawValue)
            XCTAssertEqual(emptied.setFields.count, ScoreField.allCases.count - 1, field.rawValue)
        }
        var wrongKind = full
        wrongKind[.rating] = .text("five")
        XCTAssertEqual(wrongKind, full, "a value of another kind is ignored")
    }

    func testTheJSONFormCarriesEveryFieldAndComesBack() throws {
        let data = try JSONEncoder().encode(full)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(Set(object.keys), Set(ScoreField.allCases.map(\.rawValue) + ["durationText"]), "every field, and the duration as written")
        XCTAssertEqual(object["key"] as? String, "E minor")
        XCTAssertEqual(object["reference"] as? String, "JB 1:112/2 — مرجع")
        XCTAssertEqual(try JSONDecoder().decode(ScoreMetadata.self, from: data), full)

        let empty = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(ScoreMetadata())) as? [String: Any])
        XCTAssertEqual(Set(empty.keys), ["composers", "genres", "tags", "labels"], "lists always, unset values left out")
        let sparse = try JSONDecoder().decode(ScoreMetadata.self, from: Data(#"{"title":"Ψ","key":"  "}"#.utf8))
        XCTAssertEqual(sparse, ScoreMetadata(title: "Ψ"), "missing lists are empty, a blank key is none")
        XCTAssertThrowsError(try JSONDecoder().decode(ScoreMetadata.self, from: Data(#"{"key":"H minor"}"#.utf8))) {
            XCTAssertEqual(($0 as? ScoreError)?.code, .invalidKey)
        }
    }

    /// Every key forScore knows survives the JSON form by its name (♯ and ♭ included): the
    /// catalog stores keys that way.
    func testEveryKeyComesBackByName() throws {
        XCTAssertEqual(MusicalKey.all.count, 30)
        for key in MusicalKey.all {
            let data = try JSONEncoder().encode(ScoreMetadata(key: key))
            XCTAssertEqual(try JSONDecoder().decode(ScoreMetadata.self, from: data).key, key, key.name)
        }
    }

    func testAnEditSetsAndClearsEachFieldByName() throws {
        let edit = ScoreEdit(setting: full)
        XCTAssertEqual(edit.setFields, Set(ScoreField.allCases))
        XCTAssertEqual(edit.title, full.title)
        XCTAssertEqual(edit.composers, full.composers)
        XCTAssertEqual(edit.key, full.key)
        XCTAssertEqual(edit.applied(to: ScoreMetadata()), full)

        var clearing = ScoreEdit()
        clearing.cleared = Set(ScoreField.allCases)
        XCTAssertEqual(clearing.applied(to: full), ScoreMetadata())

        var named = ScoreEdit()
        XCTAssertNil(named.composers)
        named.composers = []
        XCTAssertEqual(named.composers, [], "an empty list is a value to set")
        named.rating = 3
        named.rating = nil
        XCTAssertEqual(named.setFields, [.composers])

        let form = ScoreMetadata(title: "  Rusalka ", composers: ["Antonín Dvořák", " "], tags: ["  "], reference: "")
        let replacing = ScoreEdit(replacingWith: form)
        XCTAssertEqual(replacing.title, "Rusalka")
        XCTAssertEqual(replacing.composers, ["Antonín Dvořák"])
        XCTAssertEqual(replacing.cleared, Set(ScoreField.allCases).subtracting([.title, .composers]))
    }

    func testRangesComeFromTheTable() throws {
        for field in ScoreField.allCases {
            guard let range = field.range else {
                XCTAssertNotEqual(field.kind, .number, field.rawValue)
                continue
            }
            var score = ScoreMetadata()
            score[field] = .number(range.upperBound)
            XCTAssertNoThrow(try score.validate(), field.rawValue)
            score[field] = .number(range.upperBound + 1)
            XCTAssertThrowsError(try score.validate(), field.rawValue) {
                XCTAssertTrue("\($0)".contains("\(range.upperBound)"), "\($0) names the valid range")
            }
        }
    }

    /// Open In carries every field but the reference, tempo and time signature (forScore's
    /// dictionary has no keys for them): exported and read back, the rest comes back whole,
    /// from JSON and from a property list.
    func testTheOpenInDictionaryFollowsTheTable() throws {
        let data = try OpenInDictionary.export(full, as: .json)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(Set(object.keys), OpenInDictionary.known)
        XCTAssertEqual(object["tags"] as? String, "交響詩, Ελληνικά")
        XCTAssertEqual(object["keysf"] as? Int, 1)
        let (edit, warnings) = try OpenInDictionary.edit(from: data)
        XCTAssertEqual(warnings, [])
        var expected = full
        expected.reference = nil
        expected.tempo = nil
        expected.timeSignature = nil
        XCTAssertEqual(edit.applied(to: ScoreMetadata()), expected)
        let plist = try OpenInDictionary.export(full, as: .plist)
        XCTAssertEqual(try OpenInDictionary.edit(from: plist).0, edit)
    }
}
