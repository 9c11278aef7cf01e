import Foundation
import XCTest

@testable import FolioScore

/// Identifiers derived for index rows are RFC 9562 version 5 UUIDs: Python's uuid module
/// computes the same ones at test time.
final class BookmarkIdentifierTests: XCTestCase {
    func testDerivedIdentifiersAreVersion5UUIDsAsPythonComputesThem() throws {
        let rows: [(String, ClosedRange<Int>, Int)] = [("Blue Bossa", 14...15, 0), ("Blue Bossa", 14...15, 1),
                                                        ("Étude № 3 — «Tristesse»", 1...300, 0), ("", 2...2, 0)]
        let script = """
            import sys, uuid
            ns = uuid.uuid5(uuid.NAMESPACE_URL, "http://ns.folio.dev/score/1.0/bookmarks")
            for line in sys.stdin.read().split("\\n")[:-1]:
                print(str(uuid.uuid5(ns, line)).upper())
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let names = rows.map { "\($0.0)\u{1F}\($0.1.lowerBound)\u{1F}\($0.1.upperBound)\u{1F}\($0.2)\n" }.joined()
        input.fileHandleForWriting.write(Data(names.utf8))
        try input.fileHandleForWriting.close()
        let expected = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(rows.map { BookmarkIdentifier.derived(title: $0.0, pages: $0.1, occurrence: $0.2) }, expected)
        XCTAssertEqual(Set(expected).count, rows.count)
    }

    func testAnIndexReadTwiceGivesTheSameIdentifiers() throws {
        let csv = "Title,Page\nBlue Bossa,14\nAutumn Leaves,12\nBlue Bossa,14\n"
        let first = try CSVIndex.read(csv, pageCount: 300).bookmarks
        let second = try CSVIndex.read(csv, pageCount: 300).bookmarks
        XCTAssertEqual(first.map(\.id), second.map(\.id))
        XCTAssertEqual(Set(first.map(\.id)).count, 3, "the same row twice still gets two identifiers")
        let renamed = try CSVIndex.read(csv.replacingOccurrences(of: "Autumn Leaves", with: "Autumn Leaves (Kosma)"),
                                        pageCount: 300).bookmarks
        XCTAssertEqual(Set(first.map(\.id)).intersection(renamed.map(\.id)).count, 2, "only the changed row changes")
    }
}
