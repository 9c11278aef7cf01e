import FolioPDF
import FolioScore
import Foundation
import XCTest

/// `ScoreIntake`: what a received file is, told by content, and the PDF stored for it.
final class ScoreIntakeTests: XCTestCase {
    func testTheKindComesFromTheBytesNotTheName() {
        XCTAssertEqual(ScoreIntake.kind(of: Array("%PDF-1.7\n".utf8)), .pdf)
        XCTAssertEqual(ScoreIntake.kind(of: Array(repeating: 0x20, count: 100) + Array("%PDF-1.4".utf8)), .pdf,
                       "junk before the header, as readers allow")
        XCTAssertEqual(ScoreIntake.kind(of: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]), .jpeg)
        XCTAssertEqual(ScoreIntake.kind(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]), .png)
        XCTAssertEqual(ScoreIntake.kind(of: Array("Greensleeves\n\nAlas, my love\n".utf8)), .text)
        XCTAssertEqual(ScoreIntake.kind(of: [0xFF, 0xFE, 0x41, 0x00]), .text, "UTF-16 with its mark")
        XCTAssertNil(ScoreIntake.kind(of: [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]), "an executable")
        XCTAssertNil(ScoreIntake.kind(of: [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]), "a ZIP archive")
        XCTAssertNil(ScoreIntake.kind(of: []))
    }

    func testTextBecomesAPDFWithTheOpenInDictionaryApplied() throws {
        let made = try ScoreIntake.make(name: "lyrics.txt", bytes: Array("Scarborough Fair\n\nParsley, sage\n".utf8),
                                        openIn: Data(#"{"composers": "Traditional", "rating": 4}"#.utf8))
        XCTAssertEqual(made.fileName, "lyrics.pdf")
        XCTAssertEqual(made.kind, .text)
        let (score, _) = ScoreMetadata.read(from: try PDFDocument(bytes: made.bytes))
        XCTAssertEqual(score.title, "Scarborough Fair")
        XCTAssertEqual(score.composers, ["Traditional"])
        XCTAssertEqual(score.rating, 4)
        XCTAssertThrowsError(try ScoreIntake.make(name: "x.pdf", bytes: Array("%PDF-1.7\ngarbage\n".utf8))) { error in
            XCTAssertEqual((error as? ScoreError)?.code, .unreadable)   // a PDF that cannot become a score
        }
        XCTAssertThrowsError(try ScoreIntake.make(name: "x.zip", bytes: [0x50, 0x4B, 0x03, 0x04, 0, 0])) { error in
            XCTAssertEqual((error as? ScoreError)?.code, .invalidValue)
        }
    }
}
