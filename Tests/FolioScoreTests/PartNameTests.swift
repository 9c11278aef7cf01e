import FolioScore
import XCTest

/// Part names: a file name read as a piece and a part in the spellings ensembles use — English,
/// German, French, Italian, Czech, Russian, Greek, Japanese — with desks and keys; names that
/// merely contain an instrument's word are not parts; a player is served their part, another
/// desk, their section, else the full score.
final class PartNameTests: XCTestCase {
    private func part(_ file: String) -> (String, String?, Int?, String?, PartLabel.Kind?) {
        let name = PartName(file: file)
        return (name.song, name.label?.instrument, name.label?.number, name.label?.transposition, name.label?.kind)
    }

    func testNamesInManyLanguages() {
        XCTAssertTrue(part("Moldau - Trumpet in Bb.pdf") == ("Moldau", "Trumpet", nil, "Bb", .part))
        XCTAssertTrue(part("Moldau - Horn in F 2.pdf") == ("Moldau", "Horn", 2, "F", .part))
        XCTAssertTrue(part("Moldau (Violin I).pdf") == ("Moldau", "Violin", 1, nil, .part))
        XCTAssertTrue(part("Má vlast – Vltava – Housle II.pdf") == ("Má vlast – Vltava", "Violin", 2, nil, .part))
        XCTAssertTrue(part("Лебединое озеро (Скрипка II).pdf") == ("Лебединое озеро", "Violin", 2, nil, .part))
        XCTAssertTrue(part("Лебединое озеро - Труба in Bb.pdf") == ("Лебединое озеро", "Trumpet", nil, "Bb", .part))
        XCTAssertTrue(part("Ζορμπάς - Τρομπέτα.pdf") == ("Ζορμπάς", "Trumpet", nil, nil, .part))
        XCTAssertTrue(part("さくらさくら (フルート).pdf") == ("さくらさくら", "Flute", nil, nil, .part))
        XCTAssertTrue(part("Die Moldau - 2. Klarinette in B.pdf") == ("Die Moldau", "Clarinet", 2, "B", .part))
        XCTAssertTrue(part("Boléro [Violoncelle].pdf") == ("Boléro", "Cello", nil, nil, .part))
        XCTAssertTrue(part("Moldau - Bb Trumpet 2nd.pdf") == ("Moldau", "Trumpet", 2, "Bb", .part))
        XCTAssertTrue(part("Moldau_-_Alto_Sax.pdf") == ("Moldau", "Alto Saxophone", nil, nil, .part))
        XCTAssertTrue(part("Moldau - Partitur.pdf") == ("Moldau", nil, nil, nil, .full))
        XCTAssertTrue(part("Moldau (Full Score).pdf") == ("Moldau", nil, nil, nil, .full))
        let brass = PartName(file: "Moldau - Blechbläser.pdf").label
        XCTAssertEqual(brass?.kind, .section)
        XCTAssertEqual(brass?.section, .brass)
    }

    func testNamesThatAreNotParts() {
        for file in ["Bach - Cello Suite 1.pdf", "Gabriel's Oboe.pdf", "Mozart - Eine kleine Nachtmusik.pdf", "Horn.pdf",
                     "Dvořák - Rusalka (1901).pdf", "Suite (I).pdf", " - Trumpet.pdf"] {
            XCTAssertNil(PartName(file: file).label, file)
        }
        XCTAssertEqual(PartName(file: "Bach - Cello Suite 1.pdf").song, "Bach - Cello Suite 1")
    }

    func testSongKeysGroupSpellings() {
        XCTAssertEqual(PartName(file: "Gabriel's Oboe - Trumpet.pdf").songKey, PartName(file: "gabriels  oboe (Violin).pdf").songKey)
        XCTAssertEqual(PartName(file: "Dvořák_Largo - Horn.pdf").songKey, PartName(file: "DVORAK LARGO.pdf").songKey)
        XCTAssertNotEqual(PartName(file: "Largo - Horn.pdf").songKey, PartName(file: "Largo II - Horn.pdf").songKey)
    }

    func testWhatServesAPlayer() throws {
        let player = try XCTUnwrap(PartLabel("Violin II"))
        XCTAssertEqual(PartLabel("Violine 2")?.serves(player), .part)
        XCTAssertEqual(PartLabel("Violin")?.serves(player), .instrument)
        XCTAssertNil(PartLabel("Violin I")?.serves(player), "another desk is somebody else's part")
        XCTAssertEqual(PartLabel("Streicher")?.serves(player), .section)
        XCTAssertNil(PartLabel("Brass")?.serves(player))
        XCTAssertEqual(PartLabel("Score")?.serves(player), .full)
        let trumpet = try XCTUnwrap(PartLabel("Trumpet in Bb"))
        XCTAssertEqual(PartLabel("Trompete in B")?.serves(trumpet), .instrument, "B is not Bb as written")
        XCTAssertEqual(PartLabel("Trumpet")?.serves(trumpet), .part, "a part that names no key serves every key")
        XCTAssertLessThan(PartFit.part, PartFit.full)
    }

    func testUserLabels() {
        XCTAssertEqual(PartLabel(userLabel: "Kazoo")?.instrument, "Kazoo")
        XCTAssertEqual(PartLabel(userLabel: "Kazoo")?.serves(PartLabel(userLabel: "kazoo")!), .part)
        XCTAssertNil(PartLabel(userLabel: ""))
        XCTAssertNil(PartLabel(userLabel: String(repeating: "x", count: PartLabel.maxLength + 1)))
        XCTAssertNil(PartLabel(userLabel: "Tuba\u{7}"))
        XCTAssertEqual(Instrument.named("ヴァイオリン")?.name, "Violin")
        XCTAssertEqual(Instrument.named("lesní roh")?.section, .brass)
    }
}
