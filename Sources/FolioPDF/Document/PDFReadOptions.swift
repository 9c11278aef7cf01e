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
    /// The most bytes all stream decoding of one document may produce together (content,
    /// object streams, cross-reference streams): the total work one open can cause stays
    /// bounded however many streams a file has. Past it decoding fails with
    /// ``PDFError/Code/limitExceeded``.
    public var maxTotalDecodedBytes: Int = 2 << 30
    /// The most objects (each number, name, string, array and dictionary counts one) that
    /// may be parsed from one document: a bound on the memory its objects can take, since
    /// a few bytes like `[[][]…]` parse into far larger values. Past it reading an object
    /// fails with ``PDFError/Code/limitExceeded``.
    public var maxParsedObjects: Int = 20_000_000
    /// When work on the document must have ended: past it, parsing, decoding and walking
    /// content fail with ``PDFError/Code/limitExceeded`` (a server's time budget for one
    /// request). nil: no limit.
    public var deadline: ContinuousClock.Instant?

    public init() {}

    /// The limits `folio serve` reads with: far below the command line's, since many
    /// requests share one machine — 32 MiB per stream, 256 MiB per document, 2 million
    /// objects, and `seconds` of work.
    ///
    /// ```swift
    /// let doc = try PDFDocument(path: "score.pdf", options: .server(seconds: 20))
    /// ```
    public static func server(seconds: Double) -> PDFReadOptions {
        var options = PDFReadOptions()
        options.maxDecodedBytes = 32 << 20
        options.maxTotalDecodedBytes = 256 << 20
        options.maxParsedObjects = 2_000_000
        options.deadline = .now + .milliseconds(Int(seconds * 1000))
        return options
    }
}
