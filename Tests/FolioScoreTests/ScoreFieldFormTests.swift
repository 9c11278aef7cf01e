import FolioScore
import Foundation
import XCTest

/// The metadata's one JSON form and the fields' description: what the browser builds its
/// form from and sends back as written, read here by the same parsers `folio meta set` uses.
final class ScoreFieldFormTests: XCTestCase {
    func testEveryFieldIsDescribedInForScoresOrder() throws {
        let forms = ScoreFieldForm.all
        XCTAssertEqual(forms.map(\.name), ScoreField.allCases.map(\.rawValue))
        XCTAssertEqual(ScoreField.rating.form.input, .stars)
        XCTAssertEqual(ScoreField.rating.form.maximum, 5)
        XCTAssertEqual(ScoreField.difficulty.form.choices?.map(\.label), ["Easy", "Medium", "Difficult"])
        XCTAssertEqual(ScoreField.key.form.choices?.count, MusicalKey.all.count)
        XCTAssertEqual(ScoreField.duration.form.input, .duration)
        XCTAssertEqual(forms.filter(\.required).map(\.name), ["title"])
    }

    func testValuesComeAsWrittenAndAreReadByTheOneParser() throws {
        let json = #"{"title": "Lascia ch'io pianga — 讓我哭泣", "duration": "4:05", "tempo": "66", "rating": "4", "difficulty": "", "key": "f#m"}"#
        let metadata = try JSONDecoder().decode(ScoreMetadata.self, from: Data(json.utf8))
        XCTAssertEqual(metadata.duration, 245)
        XCTAssertEqual(metadata.tempo, 66)
        XCTAssertEqual(metadata.rating, 4)
        XCTAssertNil(metadata.difficulty, "blank is none")
        XCTAssertEqual(metadata.key?.name, "F♯ minor")
        for (bad, message) in [(#"{"duration": "1:75"}"#, "duration '1:75' is invalid"), (#"{"tempo": "presto"}"#, "valid: 1 to 999"),
                               (#"{"duration": "99999999:00:00"}"#, "out of range")] {
            XCTAssertThrowsError(try JSONDecoder().decode(ScoreMetadata.self, from: Data(bad.utf8)), bad) { error in
                XCTAssertTrue("\(error)".contains(message), "\(bad): \(error)")
            }
        }
    }

    func testTheOneJSONForm() throws {
        var metadata = ScoreMetadata(title: "Nocturne", composers: ["Фредерик Шопен"])
        metadata.duration = 3_725
        XCTAssertEqual(metadata.jsonMembers.map(\.name), ["title", "composers", "genres", "tags", "labels", "duration", "durationText"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: try JSONEncoder().encode(metadata)) as? [String: Any])
        XCTAssertEqual(object["durationText"] as? String, "1:02:05")
        XCTAssertNil(object["rating"], "unset fields are left out")
        XCTAssertEqual(try JSONDecoder().decode(ScoreMetadata.self, from: try JSONEncoder().encode(metadata)), metadata, "round trip")
    }
}
