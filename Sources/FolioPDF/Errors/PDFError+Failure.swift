import FolioFailure

extension PDFError: Failure {
    public var kind: FailureKind {
        switch code {
        case .io: .io
        case .noSpace: .noSpace
        case .notPDF, .damaged, .syntax, .filter: .unreadable
        case .limitExceeded: .tooLarge
        case .unsupportedEncryption, .passwordRequired, .wrongPassword, .notPermitted: .locked
        case .invalidArgument: .invalidValue
        }
    }
}
