import FolioLibrary
import FolioScore
import HTTPTypes
import Hummingbird

/// The one mapping from what went wrong to an HTTP status: a failure of any layer (the
/// engine's, the score layer's, the library's) by its `FailureKind`, with its own message
/// and, when busy, `Retry-After`. Nil for an error no layer describes (a bug: 500).
///
/// | kind | status |
/// | --- | --- |
/// | invalidValue, malformedInput | 400 |
/// | forbidden | 403 |
/// | notFound | 404 |
/// | conflict | 409 |
/// | tooLarge | 413 |
/// | unsupportedKind | 415 |
/// | unreadable, locked | 422 |
/// | versionRequired | 428 |
/// | tooMany | 429 |
/// | internal | 500 |
/// | io, busy, unavailable | 503 |
/// | noSpace | 507 |
enum ErrorStatus {
    static func status(of kind: FailureKind) -> HTTPResponse.Status {
        switch kind {
        case .invalidValue, .malformedInput: .badRequest
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .conflict: .conflict
        case .tooLarge: .contentTooLarge
        case .unsupportedKind: .unsupportedMediaType
        case .unreadable, .locked: .unprocessableContent
        case .versionRequired: .preconditionRequired
        case .tooMany: .tooManyRequests
        case .internal: .internalServerError
        case .io, .busy, .unavailable: .serviceUnavailable
        case .noSpace: .init(code: 507, reasonPhrase: "Insufficient Storage")
        }
    }

    static func httpError(for error: any Error) -> HTTPError? {
        guard let failure = error as? any Failure else { return nil }
        let headers: HTTPFields = failure.retryAfter.map { [.retryAfter: String($0)] } ?? [:]
        return HTTPError(status(of: failure.kind), headers: headers, message: failure.message)
    }
}
