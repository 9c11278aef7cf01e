/// A problem the engine recovered from, in the spirit of qpdf's warnings: a message,
/// the byte offset where it was found and the object it concerns.
///
/// ```swift
/// for warning in doc.warnings { print(warning) }   // "xref entry 7 points to object 9 at offset 812"
/// ```
public struct PDFWarning: Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let offset: Int?
    public let object: PDFReference?

    public init(_ message: String, offset: Int? = nil, object: PDFReference? = nil) {
        self.message = message
        self.offset = offset
        self.object = object
    }

    public var description: String {
        var text = ""
        if let object { text += "object \(object.number) \(object.generation): " }
        text += message
        if let offset { text += " (offset \(offset))" }
        return text
    }
}
