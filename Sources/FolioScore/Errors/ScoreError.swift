import FolioPDF
/// The one error type of the score domain: a code to switch on and a message that says
/// what the valid values are.
///
/// ```swift
/// do { _ = try MusicalKey(parsing: "H major") }
/// catch let error as ScoreError { print(error) }   // "unknown key 'H major'; valid forms: …"
/// ```
public typealias ScoreError = CodedFailure<ScoreErrorCode>

/// What went wrong in the score domain (``ScoreError``'s codes).
///
/// ```swift
/// throw ScoreError(.outOfRange, "rating 9 is out of range (valid: 0 to 5)")
/// ```
public enum ScoreErrorCode: String, FailureCode {
    /// A value outside its range (rating 9, keysf 8).
    case outOfRange
    /// A key name that does not parse.
    case invalidKey
    /// A duration that does not parse.
    case invalidDuration
    /// Anything else that is not a valid value.
    case invalidValue
    /// Nothing in the score has the name or id given (an annotation, a bookmark).
    case notFound
    /// A file in one of forScore's formats (4SS, 4SB, 4SC) that cannot be read.
    case malformed
    /// Input past a size bound (a decompression bomb, a huge attribute).
    case limitExceeded
    /// A file that was to be or become a score and cannot be (a damaged PDF, image or
    /// document, or one that is not what its first bytes claim).
    case unreadable
    /// A program the operation runs is not installed (LibreOffice for office documents).
    case unavailable
    /// A name the score already gives something else (a mark's `/NM` on another mark).
    case taken

    /// Bad values are `invalidValue`; a file that is not of its format is
    /// `malformedInput`; past a limit while being read, `tooLarge`.
    public var kind: FailureKind {
        switch self {
        case .outOfRange, .invalidKey, .invalidDuration, .invalidValue: .invalidValue
        case .notFound: .notFound
        case .malformed: .malformedInput
        case .limitExceeded: .tooLarge
        case .unreadable: .unreadable
        case .unavailable: .unavailable
        case .taken: .conflict
        }
    }
}
