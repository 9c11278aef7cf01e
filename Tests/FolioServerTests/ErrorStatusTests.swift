import FolioLibrary
import FolioPDF
import FolioScore
@testable import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import XCTest

/// The one failure vocabulary: every layer's error reaches HTTP through its `FailureKind`,
/// mapped in one place, with no layer's own remapping in between.
final class ErrorStatusTests: XCTestCase {
    func testEveryKindHasItsStatus() {
        let expected: [FailureKind: Int] = [
            .invalidValue: 400, .malformedInput: 400, .forbidden: 403, .notFound: 404, .conflict: 409, .tooLarge: 413,
            .unsupportedKind: 415, .unreadable: 422, .locked: 422, .versionRequired: 428, .tooMany: 429, .internal: 500,
            .io: 503, .busy: 503, .unavailable: 503, .noSpace: 507,
        ]
        XCTAssertEqual(Set(expected.keys), Set(FailureKind.allCases), "every kind is in the table")
        for kind in FailureKind.allCases {
            XCTAssertEqual(ErrorStatus.status(of: kind).code, expected[kind], "\(kind)")
        }
    }

    func testErrorsOfEveryLayerKeepTheirMessageAndKind() throws {
        let engine = ErrorStatus.httpError(for: PDFError(.wrongPassword, "the password opens neither as user nor as owner"))
        XCTAssertEqual(engine?.status, .unprocessableContent)
        XCTAssertEqual(engine?.body, "the password opens neither as user nor as owner")
        XCTAssertEqual(ErrorStatus.httpError(for: PDFError(.noSpace, "cannot write Dvořák.pdf: No space left on device"))?.status.code, 507)
        XCTAssertEqual(ErrorStatus.httpError(for: ScoreError(.outOfRange, "rating 9 is out of range (valid: 0 to 5)"))?.status, .badRequest)
        XCTAssertEqual(ErrorStatus.httpError(for: ScoreError(.limitExceeded, "季節.4sb is past 1 GiB"))?.status, .contentTooLarge)
        let busy = ErrorStatus.httpError(for: LibraryError(.busy, "the server is busy", retryAfter: 7))
        XCTAssertEqual(busy?.status, .serviceUnavailable)
        XCTAssertEqual(busy?.headers[.retryAfter], "7")
        XCTAssertNil(ErrorStatus.httpError(for: CocoaError(.fileReadUnknown)), "an error no layer describes is a bug: 500 elsewhere")
    }

    /// A taken setlist name is a conflict where the catalog finds it (no check before).
    func testATakenNameIsAConflictOfTheCatalog() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = try LibraryCatalog(folder: folder.path)
        try catalog.createSetlist("Hochzeit – 婚礼")
        XCTAssertThrowsError(try catalog.createSetlist("Hochzeit – 婚礼")) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .taken)
            XCTAssertEqual(ErrorStatus.httpError(for: error)?.status, .conflict)
        }
    }

    /// A full disk is said as such, whichever layer's write met it.
    func testAFullDiskIsNoSpace() {
        errno = ENOSPC
        XCTAssertEqual(UploadSpool.systemFailure("cannot store the upload").code, .noSpace)
        errno = EACCES
        XCTAssertEqual(UploadSpool.systemFailure("cannot store the upload").code, .io)
    }
}
