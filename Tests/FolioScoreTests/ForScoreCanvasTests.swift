import FolioPDF
import FolioScore
import Foundation
import XCTest

/// forScore's canvas, page dictionaries, layers, keys by code and drawing record names.
final class ForScoreCanvasTests: XCTestCase {
    func testPagesFitTheCanvasCentredAcrossOrAtTheTop() {
        let canvas = (Double(ForScoreCanvas.width), Double(ForScoreCanvas.height))
        for (width, height) in [(612.0, 792.0), (595.0, 842.0), (842.0, 595.0), (400.0, 300.0), (612.0, 800.0)] {
            let region = ForScoreCanvas.region(ofPageWidth: width, height: height)
            XCTAssertEqual(region.width / region.height, width / height, accuracy: 1e-9, "never stretched")
            XCTAssertEqual(region.y, 0, "the page starts at the top")
            if width / height <= canvas.0 / canvas.1 {
                XCTAssertEqual(region.height, canvas.1, accuracy: 1e-9)
                XCTAssertEqual(region.x * 2 + region.width, canvas.0, accuracy: 1e-9, "centred across")
            } else {
                XCTAssertEqual(region.x, 0)
                XCTAssertEqual(region.width, canvas.0, accuracy: 1e-9)
                XCTAssertLessThan(region.height, canvas.1, "the gap is below")
            }
        }
        XCTAssertTrue(ForScoreCanvas.hasCanvasShape(width: 2160, height: 2824))
        XCTAssertTrue(ForScoreCanvas.hasCanvasShape(width: 1080, height: 1412))
        XCTAssertFalse(ForScoreCanvas.hasCanvasShape(width: 1000, height: 1000))
        XCTAssertFalse(ForScoreCanvas.hasCanvasShape(width: 2160, height: 2700))
    }

    func testKeysByForScoresCode() throws {
        // The rule as the decodings state it (note × 100 + sharp × 10 + minor); their example
        // "110 = C major" contradicts it (110 is C♯ major by the rule, C major is 100).
        XCTAssertEqual(ForScoreLibraryData.key(code: 100), try MusicalKey(parsing: "C major"))
        XCTAssertEqual(ForScoreLibraryData.key(code: 110), try MusicalKey(parsing: "C♯ major"))
        XCTAssertEqual(ForScoreLibraryData.key(code: 411), try MusicalKey(parsing: "F♯ minor"))
        XCTAssertEqual(ForScoreLibraryData.key(code: 701), try MusicalKey(parsing: "B minor"))
        XCTAssertEqual(ForScoreLibraryData.key(code: 500), try MusicalKey(parsing: "G major"))
        for bad in [0, 11, 811, 121, 102, 1110, -110, 99] { XCTAssertNil(ForScoreLibraryData.key(code: bad), "\(bad)") }
    }

    func testPageDictionariesLayersTempoAndTimeSignature() throws {
        let name = "Smetana – Má vlast.pdf"
        let dictionary: [String: Any] = [
            name + "|key": 411, name + "|bpm": 112, name + "|timeSignature": "6/8",
            name + "|layers": [["id": "L-1", "name": "Fingerings — 指使い", "visible": false], ["name": "no id"]],
            name + "|2": ["rotation": 1, "half": 0.4, "rect": "{{10, 20}, {300, 400}}", "croppedLandscape": true, "sparkle": 1],
            name + "|3|rotation": 270, name + "|3|zoom": 1.5, name + "|3|offset": "{-12, 8}",
            name + "|4|rotation": 45, name + "|4|half": 1.5,
            name + "|2|L-1.4se": Data([1, 2]), name + "|1.png": Data([3]),
            name + "|2|textAnnotations": [["text": "ff — Ζ", "origin": "{306, 400}", "size": "{100, 20}", "layer": "L-1", "hidden": true]],
            name + "|tempo99": 1,
        ]
        let plist = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        let data = try ForScoreLibraryData(plist: Array(plist), source: "test")
        let file = try XCTUnwrap(data.files[name.precomposedStringWithCanonicalMapping])
        XCTAssertEqual(file.metadata.key, try MusicalKey(parsing: "F# minor"))
        XCTAssertEqual(file.metadata.tempo, 112)
        XCTAssertEqual(file.metadata.timeSignature, "6/8")
        XCTAssertEqual(file.layers, [ForScoreLibraryData.Layer(id: "L-1", name: "Fingerings — 指使い", isVisible: false)])
        XCTAssertEqual(file.pages[2]?.rotation, 90)
        XCTAssertEqual(file.pages[2]?.half, 0.4)
        XCTAssertEqual(file.pages[2]?.croppedLandscape, true)
        XCTAssertEqual(file.pages[2]?.crop, .rect(x: 10, y: 20, width: 300, height: 400, normalized: false))
        XCTAssertEqual(file.pages[3]?.rotation, 270)
        XCTAssertEqual(file.pages[3]?.crop, .zoom(factor: 1.5, offset: [-12, 8]))
        XCTAssertNil(file.pages[4]?.rotation)
        XCTAssertNil(file.pages[4]?.half)
        XCTAssertTrue(data.unread.contains { $0.contains("|4|rotation") && $0.contains("multiple of 90") })
        XCTAssertTrue(data.unread.contains { $0.contains("|4|half") && $0.contains("between 0 and 1") })
        XCTAssertTrue(data.unread.contains { $0.hasSuffix("|2|sparkle: page field not read") })
        XCTAssertTrue(data.unread.contains { $0.contains("a layer without an id") })
        XCTAssertEqual(file.drawings.sorted { $0.page < $1.page },
                       [.init(page: 1, layer: nil, png: [3]), .init(page: 2, layer: "L-1", png: [1, 2])])
        let box = try XCTUnwrap(file.textBoxes[2]?.first)
        XCTAssertTrue(box.inCanvasPoints)
        XCTAssertTrue(box.isHidden)
        XCTAssertEqual(box.layer, "L-1")
    }

    func testTracksFromForScoreAndTheirRefusals() throws {
        let track = try XCTUnwrap(AudioTrackLink.forScore(["Path": "Audio/Vltava.m4a", "Title": "Česká filharmonie", "LoopStart": 12, "LoopEnd": "48.5"]))
        XCTAssertEqual(track, AudioTrackLink(file: "Audio/Vltava.m4a", title: "Česká filharmonie", loopStart: 12, loopEnd: 48.5))
        XCTAssertNil(track.refusal)
        XCTAssertEqual(AudioTrackLink.forScore("Ария.mp3"), AudioTrackLink(file: "Ария.mp3"))
        XCTAssertNil(AudioTrackLink.forScore(["title": "no file"]))
        for bad in [AudioTrackLink(file: "../x.mp3"), AudioTrackLink(file: "/etc/x.mp3"), AudioTrackLink(file: "a\\..\\\u{301}x.mp3"),
                    AudioTrackLink(file: "x.mp3", loopStart: 5, loopEnd: 4), AudioTrackLink(file: "x.mp3", offset: -1),
                    AudioTrackLink(file: "x.mp3", loopStart: .nan), AudioTrackLink(file: "")] {
            XCTAssertNotNil(bad.refusal, "\(bad)")
        }
    }

    func testDrawingRecordNames() throws {
        let archive = try ForScoreArchive.encode(kind: .backup, records: [
            ("Backup", Array("x".utf8)), ("{%AUX_DIR%}/Dvořák.pdf|3.png", [1]), ("{%AUX_DIR%}/Dvořák.pdf|3|F-1.4se", [2]),
            ("{%AUX_DIR%}/Dvořák.pdf|0.png", [3]), ("{%AUX_DIR%}/no page.png", [4]), ("{%AUX_DIR%}/x|y|F.4se", [5]),
        ])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString).4sb")
        try Data(archive).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let records = try ForScoreArchive(path: file.path).records
        let layers = records.map { $0.drawingLayer.map { "\($0.file) \($0.page) \($0.layer ?? "-")" } ?? "none" }
        XCTAssertEqual(layers, ["none", "Dvořák.pdf 3 -", "Dvořák.pdf 3 F-1", "none", "none", "none"])
    }
}
