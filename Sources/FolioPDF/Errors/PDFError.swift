/// The one error type of the PDF engine.
///
/// Every error carries a ``Code`` a caller can switch on, a human-readable message, and —
/// where one exists — the byte offset and the object it concerns, plus the source
/// location that raised it (as apple/swift-asn1 does) so a report can be traced.
///
/// ```swift
/// do {
///     let doc = try PDFDocument(path: "score.pdf")
/// } catch let error as PDFError where error.code == .passwordRequired {
///     print("needs a password")
/// }
/// ```
public struct PDFError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is.
    ///
    /// ```swift
    /// do { _ = try PDFDocument(path: "Τραγούδια.pdf") }
    /// catch let error as PDFError where error.code == .wrongPassword { print("try another password") }
    /// ```
    public enum Code: String, Sendable, Equatable {
        /// The file could not be opened, read or written.
        case io
        /// The disk (or the user's quota) is full: nothing was written.
        case noSpace
        /// The bytes are not a PDF (no header, no objects) and nothing could be recovered.
        case notPDF
        /// The structure is damaged beyond what recovery can repair.
        case damaged
        /// A syntax error where recovery was not possible.
        case syntax
        /// A filter failed to decode its data.
        case filter
        /// Decoding would exceed the configured output limit (a decompression bomb).
        case limitExceeded
        /// The file is encrypted with a handler or algorithm Folio does not implement.
        case unsupportedEncryption
        /// The file needs a password and none (or the empty one) did not work.
        case passwordRequired
        /// The password given opens neither as user nor as owner.
        case wrongPassword
        /// An argument is outside its valid range.
        case invalidArgument
        /// The file's permissions forbid the change and the owner password was not given; or
        /// the file (or its folder) is read-only.
        case notPermitted
    }

    public let code: Code
    public let message: String
    /// Byte offset in the file, where one exists.
    public let offset: Int?
    /// The indirect object concerned, where one exists.
    public let object: PDFReference?
    /// Source location that raised the error, for bug reports.
    public let sourceFile: String
    public let sourceLine: Int

    public init(
        _ code: Code, _ message: String, offset: Int? = nil, object: PDFReference? = nil,
        file: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.offset = offset
        self.object = object
        self.sourceFile = file
        self.sourceLine = line
    }

    public var description: String {
        var text = message
        if let object { text += " (object \(object.number) \(object.generation))" }
        if let offset { text += " at offset \(offset)" }
        return text
    }

    public static func == (lhs: PDFError, rhs: PDFError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.offset == rhs.offset
            && lhs.object == rhs.object
    }
}

extension PDFError {
    /// A 1-based page number the document does not have, with the valid range.
    public static func pageOutOfRange(_ page: Int, count: Int, file: String = #fileID, line: Int = #line) -> PDFError {
        PDFError(.invalidArgument, count == 0 ? "page \(page) is out of range: the document has no pages"
                 : "page \(page) is out of range (valid: 1 to \(count))", file: file, line: line)
    }
}
