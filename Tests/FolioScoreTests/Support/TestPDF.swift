import FolioTestSupport
import Foundation
import XCTest

/// Small PDFs built in the tests: one page, an Info dictionary and, optionally, an XMP
/// packet. Object 5 is Info, object 4 the metadata stream.
enum TestPDF {
    static func make(info: String, xmp: String?) -> [UInt8] {
        var body = "%PDF-1.7\n"
        var offsets: [Int] = []
        func add(_ text: String) {
            offsets.append(body.utf8.count)
            body += "\(offsets.count) 0 obj\n\(text)\nendobj\n"
        }
        add("<< /Type /Catalog /Pages 2 0 R\(xmp == nil ? "" : " /Metadata 4 0 R") >>")
        add("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        add("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
        if let xmp {
            add("<< /Type /Metadata /Subtype /XML /Length \(xmp.utf8.count) >>\nstream\n\(xmp)\nendstream")
        } else {
            add("null")
        }
        add(info)
        let xref = body.utf8.count
        body += "xref\n0 6\n0000000000 65535 f\r\n"
        for offset in offsets { body += String(format: "%010d 00000 n\r\n", offset) }
        body += "trailer\n<< /Size 6 /Root 1 0 R /Info 5 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(body.utf8)
    }

    /// A file of `pages` copies of ``make(info:xmp:)``'s page at `folder/name`, put together by
    /// qpdf; its path.
    static func pages(_ pages: Int, named name: String, in folder: URL, info: String = "<< /Producer (test) >>") throws -> String {
        let one = folder.appendingPathComponent("one-\(UUID().uuidString).pdf").path
        try Data(make(info: info, xmp: nil)).write(to: URL(fileURLWithPath: one))
        defer { try? FileManager.default.removeItem(atPath: one) }
        let path = folder.appendingPathComponent(name).path
        let run = try TestEnvironment.runTool("qpdf", ["--empty", "--pages"] + Array(repeating: one, count: pages) + ["--", path])
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        return path
    }

    /// A temporary directory removed by the caller.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-score-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension XCTestCase {
    /// `TestPDF.make(info:xmp:)` written as `name` in a temporary folder that is removed when
    /// the test ends; its path.
    func temporaryPDF(named name: String, info: String, xmp: String?) throws -> String {
        let directory = try TestPDF.directory()
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(name).path
        try Data(TestPDF.make(info: info, xmp: xmp)).write(to: URL(fileURLWithPath: path))
        return path
    }
}
