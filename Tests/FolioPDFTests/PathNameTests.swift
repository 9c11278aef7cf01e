@testable import FolioPDF
import Foundation
import XCTest

/// Paths taken apart by Unicode scalars: a "/" followed by a combining mark is one Swift
/// character but still a separator on disk, in every script's names.
final class PathNameTests: XCTestCase {
    func testASeparatorBeforeACombiningMarkIsStillASeparator() {
        XCTAssertEqual("../\u{301}x.pdf".split(separator: "/").count, 1, "the trap these helpers avoid")
        XCTAssertEqual(PathName.components("../\u{301}x.pdf"), ["..", "\u{301}x.pdf"])
        XCTAssertEqual(PathName.components("Dvořák//Rusalka/", keepingEmpty: true), ["Dvořák", "", "Rusalka", ""])
        XCTAssertEqual(PathName.components("a\\..\\\u{5B0}b", separators: "/\\"), ["a", "..", "\u{5B0}b"])
        XCTAssertTrue(PathName.climbs("Ноты/../\u{301}x"))
        XCTAssertTrue(PathName.climbs("../\u{301}x"))
        XCTAssertFalse(PathName.climbs("..\u{301}/x"), "a dot-dot with a mark is a name")
        XCTAssertTrue(PathName.climbs("./x", dot: true))
        XCTAssertFalse(PathName.climbs("./x"))
        XCTAssertTrue(PathName.isAbsolute("/\u{301}etc"))
        XCTAssertFalse(PathName.isAbsolute("\\\u{301}etc"))
        XCTAssertTrue(PathName.isAbsolute("\\\u{301}etc", windows: true))
        XCTAssertTrue(PathName.isAbsolute("C:\\楽譜", windows: true))
        XCTAssertFalse(PathName.isAbsolute("楽譜/C:", windows: true))
        XCTAssertEqual(PathName.parent(of: "a/b/\u{301}c.pdf"), "a/b")
        XCTAssertEqual(PathName.parent(of: "/\u{301}c.pdf"), "/")
        XCTAssertEqual(PathName.parent(of: "שיר.pdf"), ".")
        XCTAssertEqual(PathName.lastComponent(of: "a/\u{1DA84}q.png"), "\u{1DA84}q.png")
        // The last of the components, whatever the slashes around it.
        for path in ["", "/", "//", "Ноты", "/Ноты/Dvořák//", "a//\u{301}b", "/\u{301}", "楽譜/ソナタ.pdf", "שירים/", "x/../y"] {
            XCTAssertEqual(PathName.lastComponent(of: path), PathName.components(path).last ?? path, path)
        }
        XCTAssertTrue(PathName.isInside("/lib/\u{301}x.pdf", folder: "/lib"))
        XCTAssertTrue(PathName.isInside("/lib/x.pdf", folder: "/lib/"))
        XCTAssertFalse(PathName.isInside("/library/x.pdf", folder: "/lib"))
        XCTAssertFalse(PathName.isInside("/lib", folder: "/lib"))
    }

    /// The safe save puts its temporary file beside the target, not one folder up (which
    /// failed with "No such file or directory" for a stamp named "\u{1DA84}q").
    func testASafeWriteOfANameStartingWithACombiningMarkLandsInItsFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-pathname-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder.path + "/stamps", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.path + "/stamps/\u{1DA84}q — Ἀθῆναι.png"
        try SafeFile.write(to: target, bytes: Array("Ἀθῆναι".utf8))
        XCTAssertEqual(FileManager.default.contents(atPath: target), Data("Ἀθῆναι".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["stamps"], "nothing left beside the folder")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/stamps"), ["\u{1DA84}q — Ἀθῆναι.png"])
    }

    /// The folder and the last part, taken apart by bytes, are what taking the path apart by
    /// scalars gives, in every script and with slashes anywhere; a journal's or leftover's
    /// name beside a file is composed of them.
    func testAHiddenSiblingIsNamedAsTheScalarHelpersNameIt() {
        for path in ["", "/", "//", "a.pdf", "./x.pdf", "/x.pdf", "Ноты", "/Ноты/Dvořák//", "a//\u{301}b", "/\u{301}",
                     "\u{600}/x", "/tmp/楽譜/ソナタ.pdf", "שירים/", "x/../y", "a/\u{1DA84}q — Ἀθῆναι.png"] {
            let scalars = path.unicodeScalars
            let parent = scalars.lastIndex(of: "/").map { String(String.UnicodeScalarView(scalars[..<$0])) }
            XCTAssertEqual(PathName.parent(of: path), parent.map { $0.isEmpty ? "/" : $0 } ?? ".", path)
        }
        for path in ["", "/", "//", "a.pdf", "./x.pdf", "/x.pdf", "Ноты", "/Ноты/Dvořák//", "a//\u{301}b", "/\u{301}",
                     "/tmp/楽譜/ソナタ.pdf", "שירים/", "x/../y", "Police 3/Krabice/Βιβλίο 3.pdf", "a/\u{1DA84}q — Ἀθῆναι.png"] {
            let parent = PathName.parent(of: path)
            let bare = parent == "." && !path.unicodeScalars.starts(with: "./".unicodeScalars)  // a name without a folder
            let expected = (bare ? "" : parent + "/") + ".\(PathName.lastComponent(of: path)).folio-journal"
            XCTAssertEqual(SafeFile.hiddenSibling(of: path, suffix: "folio-journal"), expected, path)
        }
    }
}
