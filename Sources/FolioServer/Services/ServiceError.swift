import FolioPDF

/// What a service of the server (``ScoreService``, ``SetlistService``, ``WorkQueue``) says
/// went wrong, in the library's words, knowing nothing of HTTP; `ErrorStatus` is the one
/// place that turns these — and the engine's, the score layer's and the library's errors —
/// into statuses.
///
/// ```swift
/// throw ServiceError(.conflict, "the score changed since you loaded it; reload and try again")
/// ```
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as the one mapping to HTTP statuses reads it.
    ///
    /// ```swift
    /// throw ServiceError(.notFound, "no score 42")
    /// ```
    public enum Kind: Sendable, Equatable {
        /// A value out of its range or of the wrong form (the message names the valid one).
        case invalidValue
        /// No such score, setlist, annotation or bookmark.
        case notFound
        /// The thing changed since it was read (a stale version), or a name is taken.
        case conflict
        /// A change was sent without the version it is based on.
        case versionRequired
        /// A file of a kind Folio does not take.
        case unsupportedKind
        /// A file that cannot be read as what it claims.
        case unreadable
        /// Input past a size limit.
        case tooLarge
        /// The server is busy; try again after ``ServiceError/retryAfter`` seconds.
        case busy
        /// A program the operation runs is not installed on the server (LibreOffice).
        case unavailable
        /// The disk is full or cannot be written.
        case noSpace
        /// A fault of Folio's own.
        case `internal`
    }

    public let kind: Kind
    public let message: String
    /// Seconds to wait before trying again, for ``Kind/busy``.
    public var retryAfter: Int?

    public init(_ kind: Kind, _ message: String, retryAfter: Int? = nil) {
        self.kind = kind
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { message }

    /// The engine's, the score layer's and the library's errors (every `Failure`)
    /// in the service's words, by their `FailureKind`; nil for anything else (a
    /// fault of Folio's own).
    public init?(_ error: any Error) {
        switch error {
        case let error as ServiceError:
            self = error
        case let failure as any Failure:
            let kind: Kind = switch failure.kind {
            case .invalidValue, .malformedInput: .invalidValue
            case .notFound: .notFound
            case .unreadable, .tooLarge, .locked: .unreadable
            case .io: .busy
            case .unavailable: .unavailable
            case .internal: .internal
            case .conflict: .conflict
            case .versionRequired: .versionRequired
            }
            self.init(kind, failure.message)
        default:
            return nil
        }
    }
}
