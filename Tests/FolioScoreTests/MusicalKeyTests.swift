import XCTest

@testable import FolioScore

final class MusicalKeyTests: XCTestCase {
    /// forScore's table, row by row: keysf, keymi, name.
    func testEveryKeyOfTheSeedTable() throws {
        let table: [(Int, Int, String)] = [
            (-7, 0, "C♭ major"), (-6, 0, "G♭ major"), (-5, 0, "D♭ major"), (-4, 0, "A♭ major"), (-3, 0, "E♭ major"),
            (-2, 0, "B♭ major"), (-1, 0, "F major"), (0, 0, "C major"), (1, 0, "G major"), (2, 0, "D major"),
            (3, 0, "A major"), (4, 0, "E major"), (5, 0, "B major"), (6, 0, "F♯ major"), (7, 0, "C♯ major"),
            (-7, 1, "A♭ minor"), (-6, 1, "E♭ minor"), (-5, 1, "B♭ minor"), (-4, 1, "F minor"), (-3, 1, "C minor"),
            (-2, 1, "G minor"), (-1, 1, "D minor"), (0, 1, "A minor"), (1, 1, "E minor"), (2, 1, "B minor"),
            (3, 1, "F♯ minor"), (4, 1, "C♯ minor"), (5, 1, "G♯ minor"), (6, 1, "D♯ minor"), (7, 1, "A♯ minor"),
        ]
        XCTAssertEqual(MusicalKey.all.count, 30)
        for (keysf, keymi, name) in table {
            let key = try MusicalKey(keysf: keysf, keymi: keymi)
            XCTAssertEqual(key.name, name)
            XCTAssertEqual(try MusicalKey(parsing: name), key, name)
            let ascii = name.replacingOccurrences(of: "♯", with: "#").replacingOccurrences(of: "♭", with: "b")
            XCTAssertEqual(try MusicalKey(parsing: ascii), key, ascii)
        }
    }

    func testASCIISpellings() throws {
        XCTAssertEqual(try MusicalKey(parsing: "F# minor").name, "F♯ minor")
        XCTAssertEqual(try MusicalKey(parsing: "Bb").name, "B♭ major")
        XCTAssertEqual(try MusicalKey(parsing: "bb minor").name, "B♭ minor")
        XCTAssertEqual(try MusicalKey(parsing: "f#m").name, "F♯ minor")
        XCTAssertEqual(try MusicalKey(parsing: "Ebm").name, "E♭ minor")
        XCTAssertEqual(try MusicalKey(parsing: "  D major ").name, "D major")
        XCTAssertEqual(try MusicalKey(parsing: "a").name, "A minor", "a lower-case tonic alone is minor")
        XCTAssertEqual(try MusicalKey(parsing: "Bm").name, "B minor")
        XCTAssertEqual(try MusicalKey(parsing: "F sharp minor").name, "F♯ minor")
        XCTAssertEqual(try MusicalKey(parsing: "E-flat major").name, "E♭ major")
    }

    func testInvalidKeysListValidForms() {
        for text in ["H major", "", "C mixolydian", "X"] {
            XCTAssertThrowsError(try MusicalKey(parsing: text), text) { error in
                XCTAssertEqual((error as? ScoreError)?.code, .invalidKey)
                XCTAssertTrue("\(error)".contains("valid"), "\(error)")
            }
        }
        // Spellable but beyond seven accidentals.
        XCTAssertThrowsError(try MusicalKey(parsing: "D# major")) { error in
            XCTAssertTrue("\(error)".contains("C♯"), "lists the valid major keys: \(error)")
        }
        XCTAssertThrowsError(try MusicalKey(keysf: 8, keymi: 0)) { error in
            XCTAssertEqual("\(error)", "keysf 8 is out of range (valid: -7 to 7)")
        }
        XCTAssertThrowsError(try MusicalKey(keysf: 0, keymi: 2))
    }
}

final class ForScoreInfoTests: XCTestCase {
    /// The seed's own example: "My Tag, rating:3, difficulty:5".
    func testSeedExample() {
        let fields = InfoFields(title: "My Title", author: "My Composer", subject: "Genre One, Genre Two",
                                keywords: "My Tag, rating:3, difficulty:5")
        let (score, warnings) = ForScoreInfo.read(fields)
        XCTAssertEqual(score.title, "My Title")
        XCTAssertEqual(score.composers, ["My Composer"])
        XCTAssertEqual(score.genres, ["Genre One", "Genre Two"])
        XCTAssertEqual(score.tags, ["My Tag"])
        XCTAssertEqual(score.rating, 3)
        XCTAssertEqual(score.difficulty, 3, "clamped as the seed's code does")
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("0–3"), warnings[0])
    }

    func testEverySpecialKeyword() {
        let (score, warnings) = ForScoreInfo.read(InfoFields(
            keywords: " Baroque ,RATING: 4, Difficulty:2 , duration:72, keysf:-3, keymi:1,, seconds-like:1 "))
        XCTAssertEqual(score.rating, 4)
        XCTAssertEqual(score.difficulty, 2)
        XCTAssertEqual(score.duration, 72)
        XCTAssertEqual(score.key?.name, "C minor")
        XCTAssertEqual(score.tags, ["Baroque", "seconds-like:1"], "unknown colon keywords stay tags")
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(ForScoreInfo.read(InfoFields(keywords: "seconds:90")).0.duration, 90, "the prose's form")
        XCTAssertEqual(ForScoreInfo.read(InfoFields(keywords: "keysf:2")).0.key?.name, "D major", "keymi defaults to major")
    }

    func testClampingAndNonNumbers() {
        let (score, warnings) = ForScoreInfo.read(InfoFields(keywords: "rating:9, difficulty:-1, keysf:12, duration:abc"))
        XCTAssertEqual(score.rating, 5)
        XCTAssertEqual(score.difficulty, 0)
        XCTAssertEqual(score.key?.keysf, 7)
        XCTAssertNil(score.duration)
        XCTAssertEqual(warnings.count, 4, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.contains("not a whole number") })
    }

    func testLegacyKeywords() {
        XCTAssertEqual(ForScoreInfo.read(InfoFields(keywords: "forScore-rating:4, forScore-difficulty:1")).0.rating, 4)
        XCTAssertEqual(ForScoreInfo.read(InfoFields(keywords: "forScore-difficulty:2")).0.difficulty, 2)
        let both = ForScoreInfo.read(InfoFields(keywords: "forScore-rating:1, rating:5")).0
        XCTAssertEqual(both.rating, 5, "the current keyword wins")
    }

    func testWritingOrderAndRoundTrip() throws {
        let score = ScoreMetadata(title: "Nocturne Op. 90 № 2", composers: ["Frédéric Chopin"], genres: ["Romantic", "Piano"],
                                  tags: ["Recital", "Memorised"], rating: 4, difficulty: 3, duration: 272,
                                  key: try MusicalKey(parsing: "Eb"))
        let fields = try ForScoreInfo.fields(for: score)
        XCTAssertEqual(fields.keywords, "Recital, Memorised, rating:4, difficulty:3, duration:272, keysf:-3, keymi:0")
        XCTAssertEqual(fields.author, "Frédéric Chopin")
        XCTAssertEqual(fields.subject, "Romantic, Piano")
        let (back, warnings) = ForScoreInfo.read(fields)
        XCTAssertEqual(back, score)
        XCTAssertEqual(warnings, [])
    }

    func testCommaInAValueIsRefusedUnlessAllowed() throws {
        let score = ScoreMetadata(composers: ["Bach, J. S."])
        XCTAssertThrowsError(try ForScoreInfo.fields(for: score)) { error in
            XCTAssertTrue("\(error)".contains("--allow-comma"))
        }
        XCTAssertEqual(try ForScoreInfo.fields(for: score, allowComma: true).author, "Bach, J. S.")
    }

    func testOutOfRangeValuesAreClearErrors() {
        XCTAssertThrowsError(try ForScoreInfo.fields(for: ScoreMetadata(rating: 9))) { error in
            XCTAssertEqual("\(error)", "rating 9 is out of range (valid: 0 to 5)")
        }
        XCTAssertThrowsError(try ForScoreInfo.fields(for: ScoreMetadata(difficulty: 4)))
        XCTAssertThrowsError(try ForScoreInfo.fields(for: ScoreMetadata(duration: -1)))
    }

    func testDurations() throws {
        XCTAssertEqual(try ScoreDuration.parse("72"), 72)
        XCTAssertEqual(try ScoreDuration.parse("1:12"), 72)
        XCTAssertEqual(try ScoreDuration.parse("1:02:03"), 3723)
        XCTAssertEqual(ScoreDuration.format(72), "1:12")
        XCTAssertEqual(ScoreDuration.format(3723), "1:02:03")
        for bad in ["", "1:2", "1:60", "-5", "a:bc", "1:2:3:4"] {
            XCTAssertThrowsError(try ScoreDuration.parse(bad), bad)
        }
    }
}
