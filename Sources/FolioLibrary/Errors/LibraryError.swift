import FolioPDF
/// The one error type of the library layer, with a code a shell maps to its exit status.
///
/// ```swift
/// do { _ = try LibraryCatalog(folder: "/nowhere", create: false) }
/// catch let error as LibraryError where error.code == .notFound { print(error) }
/// ```
public struct LibraryError: Failure {
    public enum Code: Sendable {
        /// A folder, catalog or score that does not exist.
        case notFound
        /// A filter or argument out of its valid range.
        case invalidArgument
        /// The database refused (locked past the timeout, damaged, full disk).
        case database
        /// Reading or writing a file failed.
        case io
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public var kind: FailureKind {
        switch code {
        case .notFound: .notFound
        case .invalidArgument: .invalidValue
        case .database: .internal
        case .io: .io
        }
    }
}
