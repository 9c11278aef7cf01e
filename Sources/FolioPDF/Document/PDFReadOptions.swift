/// Limits and choices for reading a document.
///
/// ```swift
/// var options = PDFReadOptions()
/// options.maxDecodedBytes = 64 << 20   // refuse streams that inflate past 64 MiB
/// let doc = try PDFDocument(path: "score.pdf", options: options)
/// ```
public struct PDFReadOptions: Sendable {
    /// The largest output one stream may decode to; past it decoding fails with
    /// ``PDFError/Code/limitExceeded`` (protection against decompression bombs).
    public var maxDecodedBytes: Int = 256 << 20
    /// Most warnings kept per document (all are counted).
    public var maxWarnings: Int = 1000

    public init() {}
}
