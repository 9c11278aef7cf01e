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

    public var kind: FailureKind {
        switch self {
        case .notFound: .notFound
        case .invalidArgument: .invalidValue
        case .database: .internal
        case .io: .io
        case .conflict: .conflict
        case .versionRequired: .versionRequired
        }
    }
}
