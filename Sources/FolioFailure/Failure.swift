import Foundation

/// The failure vocabulary every layer shares: what kind of thing went wrong, in words a
/// shell can act on. ``PDFError``, FolioScore's `ScoreError` and FolioLibrary's
/// `LibraryError` each keep their own detailed codes and say which kind each code is; the
/// command line maps kinds to exit codes in one place, the server to HTTP statuses in one
/// place.
///
/// ```swift
/// do {
///     _ = try ScoreFile("Dvořák - Rusalka.pdf").open()
/// } catch let failure as any Failure where failure.kind == .locked {
///     print("needs a password: \(failure.message)")
/// }
/// ```
public protocol Failure: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is.
    var kind: FailureKind { get }
    /// The failure in plain words, naming the valid range where a value is out of one.
    var message: String { get }
    /// Seconds after which the same call may succeed, for a ``FailureKind/busy`` failure.
    var retryAfter: Int? { get }
}

extension Failure {
    public var retryAfter: Int? { nil }
}

/// A layer's own detailed failure codes, each of a ``FailureKind``.
///
/// ```swift
/// enum ImportCode: String, FailureCode {
///     case badHeader
///     var kind: FailureKind { .malformedInput }
/// }
/// ```
public protocol FailureCode: Sendable, Hashable {
    /// The kind of failure a code is.
    var kind: FailureKind { get }
}

/// A failure with a layer's own code and a message: the error type of the score layer
/// (`ScoreError`) and of the library (`LibraryError`).
///
/// ```swift
/// enum ImportCode: String, FailureCode { case badHeader; var kind: FailureKind { .malformedInput } }
/// let error = CodedFailure(ImportCode.badHeader, "line 1: the header needs a Filename column")
/// error.kind   // .malformedInput
/// ```
public struct CodedFailure<Code: FailureCode>: Failure, Equatable {
    public let code: Code
    public let message: String
    /// Seconds after which the same call may succeed (a busy server), when known.
    public let retryAfter: Int?

    public init(_ code: Code, _ message: String, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { message }
    public var kind: FailureKind { code.kind }
}

/// The kinds of ``Failure``, from the caller's point of view: the one vocabulary the
/// command line maps to exit codes (`CommandError`) and the server to HTTP statuses
/// (`ErrorStatus`), each in one place.
///
/// | kind | what went wrong | `folio` exits | the server answers |
/// | --- | --- | --- | --- |
/// | ``invalidValue`` | a value given is out of range or of the wrong form | 64 | 400 |
/// | ``malformedInput`` | a file given as input (CSV, 4SB, plist, dictionary) is not of its format | 64 | 400 |
/// | ``unsupportedKind`` | a file of a kind Folio does not take | 64 | 415 |
/// | ``notFound`` | no such score, page, bookmark, setlist | 1 | 404 |
/// | ``unreadable`` | a PDF is damaged beyond repair or not a PDF | 1 | 422 |
/// | ``locked`` | a password is needed, wrong, or the permissions forbid the change | 1 | 422 |
/// | ``tooLarge`` | input past a limit (a decompression bomb, an archive, a message) | 64 | 413 |
/// | ``conflict`` | the file changed since the version an edit was made against, or a name is taken | 1 | 409 |
/// | ``versionRequired`` | an edit came without the version it was made against | 1 | 428 |
/// | ``forbidden`` | the member's role may not make this change (a player deleting a score) | 77 | 403 |
/// | ``io`` | the file system refused (missing file, no permission) | 1 | 503 |
/// | ``noSpace`` | the disk is full | 1 | 507 |
/// | ``busy`` | too much running at once; try again after ``Failure/retryAfter`` | 75 | 503 |
/// | ``unavailable`` | a program Folio runs for it is not installed (LibreOffice), or the catalog's database server cannot be reached | 69 | 503 |
/// | ``internal`` | a fault of Folio's own or of its catalog database | 1 | 500 |
///
/// ```swift
/// let error = PDFError(.wrongPassword, "the password opens neither as user nor as owner")
/// error.kind              // .locked
/// error.kind.isCallersInput   // false: `folio` exits 1, the server answers 422
/// ```
public enum FailureKind: String, Sendable, CaseIterable {
    case invalidValue, malformedInput, notFound, unreadable, tooLarge, locked, io, unavailable, `internal`
    /// An edit made against a version of the file that is no longer its own (or nothing to
    /// undo), or a name that is taken.
    case conflict
    /// An edit that must name the version it was made against did not.
    case versionRequired
    /// The one asking may not do this: their role lacks the right (a player deleting a score,
    /// or removing another's mark), or an invitation was used already. Nothing was touched.
    case forbidden
    /// A file of a kind Folio does not take (a spreadsheet given as a score).
    case unsupportedKind
    /// The disk is full: nothing was written.
    case noSpace
    /// Too much is running at once; the same call may succeed later.
    case busy
    /// The caller has too much of its own waiting (drops, rehearsals from one device); the same
    /// call may succeed once that is done. Others are not held up.
    case tooMany

    /// Whether the failure lies in what the caller gave (a value, an input file, one past a
    /// limit) rather than in a file or the system: nothing was touched, and the same call
    /// will fail again.
    public var isCallersInput: Bool { [.invalidValue, .malformedInput, .unsupportedKind, .tooLarge].contains(self) }

    /// The kind of a failed system call's `errno`: ``noSpace`` for a full disk or quota,
    /// else ``io``.
    ///
    /// ```swift
    /// FailureKind(systemError: ENOSPC)   // .noSpace
    /// ```
    public init(systemError number: Int32) {
        self = number == ENOSPC || number == EDQUOT ? .noSpace : .io
    }
}
