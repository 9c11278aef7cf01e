import FolioLibrary
import XCTest

/// The one default author of a change, for both shells.
final class EditAuthorTests: XCTestCase {
    func testTheNamedAuthorFirstThenTheLogin() {
        XCTAssertEqual(EditAuthor.current(["FOLIO_AUTHOR": "Chloé Dvořák", "USER": "chloe"]), "Chloé Dvořák")
        XCTAssertEqual(EditAuthor.current(["FOLIO_AUTHOR": "  ", "USER": "王芳"]), "王芳", "a blank name is no name")
        XCTAssertEqual(EditAuthor.current(["LOGNAME": "أحمد"]), "أحمد")
        XCTAssertFalse(EditAuthor.current([:]).isEmpty, "without any, the account's name or Folio")
    }
}
