import FolioPDF
import FolioScore
import Foundation
import XCTest

/// Reading text as it comes (encodings, tabs), telling chord charts from prose, and ChordPro.
final class TextScoreTests: XCTestCase {
    func testEncodingsAreDetected() throws {
        let text = "Für Elise – “Poco moto” €\n\tTab"
        let expanded = "Für Elise – “Poco moto” €\n        Tab"
        let utf16BE: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let cp1252 = Array(try XCTUnwrap(text.data(using: .windowsCP1252)))
        XCTAssertEqual(try TextDecoding.decode(Array(text.utf8)).encoding, .utf8)
        XCTAssertEqual(try TextDecoding.decode([0xEF, 0xBB, 0xBF] + Array(text.utf8)).text, expanded)
        XCTAssertEqual(try TextDecoding.decode(utf16BE).encoding, .utf16BE)
        XCTAssertEqual(try TextDecoding.decode(utf16BE).text, expanded)
        XCTAssertEqual(try TextDecoding.decode(cp1252).encoding, .windows1252)
        XCTAssertEqual(try TextDecoding.decode(cp1252).text, expanded)
        XCTAssertEqual(try TextDecoding.decode(Array("a\r\nb\rc".utf8)).text, "a\nb\nc")
        XCTAssertEqual(try TextDecoding.decode(Array("ab\tc".utf8)).text, "ab      c")
        XCTAssertThrowsError(try TextDecoding.decode([0x41, 0x00, 0x42]))
    }

    func testChordChartsAreToldFromProse() {
        for chord in ["C", "F#m7", "Bbmaj7/D", "Gsus4", "Cadd9", "Edim", "A7(b9)", "N.C.", "D/F#", "Ebm"] {
            XCTAssertTrue(ChordSymbol.isChord(Substring(chord)), chord)
        }
        for word in ["Am I", "Go", "Cat", "Bbx", "D/H", "Each", "Amazing"] {
            XCTAssertFalse(ChordSymbol.isChord(Substring(word)), word)
        }
        XCTAssertTrue(ChordSymbol.looksLikeChordChart(["G   C", "Hello there", "", "D   G", "Goodbye now"]))
        XCTAssertFalse(ChordSymbol.looksLikeChordChart(["A tale of two cities", "Every good boy", "C D E"]))
        XCTAssertFalse(ChordSymbol.looksLikeChordChart(["G C D", "Am Em"]), "chord names alone are not a chart")
    }

    func testChordProIsParsed() {
        let song = ChordProSong(parsing: """
            {t: Song}
            {st: Sub}
            {meta: composer Anon}
            {key: F#m}
            {start_of_chorus: Refrain}
            [F#m]Hel[D]lo [E]
            {eoc}
            {sot}
            [not a chord] {c: kept}
            {eot}
            {unknown: x}
            """)
        XCTAssertEqual(song.title, "Song")
        XCTAssertEqual(song.subtitles, ["Sub"])
        XCTAssertEqual(song.composers, ["Anon"])
        XCTAssertEqual(song.lines.map(\.kind), [
            .sectionStart(.chorus, label: "Refrain"),
            .lyrics([.init(chord: "F#m", text: "Hel"), .init(chord: "D", text: "lo "), .init(chord: "E", text: "")]),
            .sectionEnd(.chorus), .sectionStart(.tab, label: nil), .verbatim("[not a chord] {c: kept}"), .sectionEnd(.tab),
        ])
        XCTAssertEqual(song.warnings, ["line 11: the directive {unknown} is not understood; left out"])
        let (edit, warnings) = song.edit(fallbackTitle: "file")
        XCTAssertEqual(edit.key?.name, "F♯ minor")
        XCTAssertEqual(edit.composers, ["Anon"])
        XCTAssertTrue(warnings.isEmpty)
        XCTAssertEqual(ChordProSong(parsing: "{key: H}").edit(fallbackTitle: "f").warnings.count, 1)
        XCTAssertEqual(ChordProSong(parsing: "la").edit(fallbackTitle: "f").edit.title, "f")
    }

    func testPaperFollowsTheLocale() {
        XCTAssertEqual(ScoreMake.Paper.forLocale("en_US.UTF-8"), .letter)
        XCTAssertEqual(ScoreMake.Paper.forLocale("fr_CA"), .letter)
        XCTAssertEqual(ScoreMake.Paper.forLocale("de_DE.UTF-8"), .a4)
        XCTAssertEqual(ScoreMake.Paper.forLocale("C.UTF-8"), .a4)
        XCTAssertEqual(ScoreMake.Paper.forLocale(nil), .a4)
    }

    /// Long lines — prose, a word wider than a line, a chord chart, ChordPro — take about four
    /// times as long for four times the text, not sixteen: each character is measured once
    /// (wrapping re-measured the rest of the line per step, and 8 MB held a core for minutes).
    /// The absolute goal, a megabyte in one line under a second, is checked on the release
    /// binary by Tests/API/serve_probe.py.
    func testLongLinesAreTypesetInLinearTime() throws {
        var unicode = TextScore.Options()
        unicode.fontFile = try TrueTypeFont(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))))
        let shapes: [(String, (Int) -> String, TextScore.Options)] = [
            ("prose.txt", { String(repeating: "Für Elise – dolce cantabile, ritardando a tempo ", count: $0) }, TextScore.Options()),
            ("word.txt", { String(repeating: "řЖλ", count: $0 * 6) }, unicode),   // one word far wider than a line
            ("chart.txt", { String(repeating: "C       G       Am      F       ", count: $0) + "\n"
                + String(repeating: "Let it be, let it be, whisper words ", count: $0) }, TextScore.Options()),
            ("song.cho", { "{title: Dolce}\n" + String(repeating: "[C]la[G]la ", count: $0 * 3) }, TextScore.Options()),
        ]
        for (name, text, options) in shapes {
            var times: [Duration] = []
            for count in [2_000, 8_000] {
                let bytes = Array(text(count).utf8)
                var best = Duration.seconds(3600)
                for _ in 0..<2 {   // the better of two runs: a busy machine slows one, not the shape of the curve
                    let started = ContinuousClock.now
                    let made = try TextScore.pdf([(name, bytes)], options: options)
                    best = min(best, started.duration(to: .now))
                    XCTAssertTrue(made.bytes.starts(with: Array("%PDF-".utf8)), name)
                }
                times.append(best)
            }
            XCTAssertLessThan(times[1] / times[0], 8.0, "\(name): \(times[0]) for the text, \(times[1]) for four times the text")
        }
        let prose = String(repeating: "Für Elise – dolce cantabile, ritardando a tempo ", count: 20_000)
        var options = TextScore.Options()
        options.maxLineCharacters = 1000
        XCTAssertThrowsError(try TextScore.pdf([("prose.txt", Array(prose.utf8))], options: options)) { error in
            XCTAssertEqual((error as? ScoreError)?.code, .limitExceeded)
            XCTAssertTrue("\(error)".contains("1000"), "\(error)")
        }
        options = TextScore.Options()
        options.maxCharacters = 10_000
        XCTAssertThrowsError(try TextScore.pdf([("prose.txt", Array(prose.utf8))], options: options)) { error in
            XCTAssertEqual((error as? ScoreError)?.code, .limitExceeded)
        }
    }

    /// The wrapped pieces of a long line hold every character in order, none wider than the
    /// line unless a single character is.
    func testWrappingKeepsEveryCharacterWithinTheWidth() {
        let face = PDFTypeface.standard(.helvetica)
        let line = "Für Elise  " + String(repeating: "x", count: 500) + " end of the line, at last"
        let pieces = face.wrap(line, size: 11, maxWidth: 200)
        XCTAssertGreaterThan(pieces.count, 3)
        XCTAssertTrue(pieces.allSatisfy { face.width(of: $0, size: 11) <= 200 + 1e-9 || $0.count == 1 }, "\(pieces)")
        XCTAssertEqual(pieces.joined().filter { $0 != " " }, line.filter { $0 != " " })
        XCTAssertEqual(face.wrap("short", size: 11, maxWidth: 200), ["short"])
    }
}
