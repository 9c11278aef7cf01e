import FolioLibrary
@testable import FolioServer
import FolioTestSupport
import XCTest

/// A view's tag (the file's version and what the asker is not shown) and the version an
/// `If-Match` names: a property test over seeded random versions, names in several scripts
/// and hostile headers.
final class FileVersionViewTests: XCTestCase {
    func testAViewsTagGivesBackItsVersionAndDiffersByWhatItHides() {
        var random = SeededGenerator(#function)
        let names = ["Anna Nováková — Violin II", "Борис — Viola", "李雷 — conductor", "Strings — section", "עוגב", "obj-12", ";v=", "\""]
        for _ in 0..<2_000 {
            let version = "\"\(random.next() % 1_000_000_000)-\(random.next())\""
            let hidden = (0..<Int(random.next() % 4)).map { _ in names[Int(random.next() % UInt64(names.count))] }
            let tag = FileVersion.tag(version, hiding: hidden)
            XCTAssertEqual(FileVersion.version(ifMatch: tag), version, tag)
            if hidden.isEmpty {
                XCTAssertEqual(tag, version, "a view that hides nothing is the file's version")
            } else {
                XCTAssertNotEqual(tag, version)
                XCTAssertTrue(tag.hasPrefix(String(version.dropLast()) + ";v=") && tag.hasSuffix("\""), tag)
                XCTAssertNotEqual(tag, FileVersion.tag(version, hiding: hidden + ["Hans — Trumpet in Bb"]))
            }
        }
        // What is not a view's tag is given back as it came: a setlist's version, junk, extremes.
        for header in ["", "\"", "\"\"", ";v=", "\";v=\"", "\"1-2;v=0123456789abcdeX\"", "\"1-2;v=0123456789abcdef0\"",
                       "W/\"1-2\"", "*", "\"1-2\", \"3-4\"", String(repeating: ";v=", count: 10_000), "\"Слава;v=ffffffffffffffff"] {
            XCTAssertEqual(FileVersion.version(ifMatch: header), header, header.prefix(40).description)
        }
        XCTAssertNil(FileVersion.version(ifMatch: nil))
        XCTAssertEqual(FileVersion.version(ifMatch: "\"1-2;v=0123456789abcdef\""), "\"1-2\"")
        XCTAssertEqual(FileVersion.tag("not quoted", hiding: ["x"]), "not quoted")
    }
}
