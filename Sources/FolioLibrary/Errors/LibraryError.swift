import FolioPDF

/// The one error type of the library layer, with a code a shell maps to its exit status.
///
/// ```swift
/// do { _ = try LibraryCatalog(folder: "/nowhere", create: false) }
/// catch let error as LibraryError where error.code == .notFound { print(error) }
/// ```
public typealias LibraryError = CodedFailure<LibraryErrorCode>

/// What went wrong in the library layer (``LibraryError``'s codes).
///
/// ```swift
/// throw LibraryError(.notFound, "no score 42 in the catalog")
/// ```
public enum LibraryErrorCode: String, FailureCode {
    /// A folder, catalog or score that does not exist.
    case notFound
    /// A filter or argument out of its valid range.
    case invalidArgument
    /// The database refused (locked past the timeout, damaged, full disk).
    case database
    /// Reading or writing a file failed.
    case io
    /// A score changed since the version an edit was made against, or there is nothing to undo.
    case conflict
    /// An edit had to say which version of the score it was made against, and did not.
    case versionRequired
    /// A name (of a setlist, a file) that is taken.
    case taken
    /// The member's role lacks the right, or an invitation was used already.
    case forbidden
    /// A file of a kind the library does not take in.
    case unsupportedKind
    /// A file that cannot be read as what it claims to be.
    case unreadable
    /// Input past a size limit (an upload, a message, a QR code's text).
    case tooLarge
    /// The disk (or the user's quota) is full.
    case noSpace
    /// Too much is running at once (heavy work, rehearsals); try again after `retryAfter`.
    case busy
    /// One caller (a device's address) has too much waiting; try again after `retryAfter`.
    case tooMany
    /// The catalog's database server cannot be reached (PostgreSQL down, refused, timed out); try again.
    case unavailable
    /// A fault of Folio's own: something that should have been there is not.
    case `internal`

    public var kind: FailureKind {
        switch self {
        case .notFound: .notFound
        case .invalidArgument: .invalidValue
        case .database, .internal: .internal
        case .io: .io
        case .conflict, .taken: .conflict
        case .versionRequired: .versionRequired
        case .forbidden: .forbidden
        case .unsupportedKind: .unsupportedKind
        case .unreadable: .unreadable
        case .tooLarge: .tooLarge
        case .noSpace: .noSpace
        case .busy: .busy
        case .tooMany: .tooMany
        case .unavailable: .unavailable
        }
    }
}
