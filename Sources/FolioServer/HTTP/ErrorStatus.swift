import HTTPTypes
import Hummingbird

/// The one mapping from what went wrong to an HTTP status: a ``ServiceError`` (or an error
/// of the engine, the score layer or the library, in its words) by its kind. Bad values are
/// 400, a score that cannot be read or changed 422, a busy file 503; nil for an error no
/// one describes (a bug: 500).
enum ErrorStatus {
    static func httpError(for error: any Error) -> HTTPError? {
        guard let error = ServiceError(error) else { return nil }
        let status: HTTPResponse.Status = switch error.kind {
        case .invalidValue: .badRequest
        case .notFound: .notFound
        case .conflict: .conflict
        case .versionRequired: .preconditionRequired
        case .unsupportedKind: .unsupportedMediaType
        case .unreadable: .unprocessableContent
        case .tooLarge: .contentTooLarge
        case .busy, .unavailable: .serviceUnavailable
        case .noSpace: .init(code: 507, reasonPhrase: "Insufficient Storage")
        case .internal: .internalServerError
        }
        let headers: HTTPFields = error.retryAfter.map { [.retryAfter: String($0)] } ?? [:]
        return HTTPError(status, headers: headers, message: error.message)
    }
}
