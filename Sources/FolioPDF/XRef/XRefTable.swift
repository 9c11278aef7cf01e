/// Where an object lives, as the cross-reference data says.
///
/// ```swift
/// if case .compressed(let stream, let index)? = document.xref.entries[12] {
///     print("object 12 is number \(index) in object stream \(stream)")
/// }
/// ```
public enum XRefEntry: Sendable, Equatable {
    /// Not in use.
    case free
    /// Stored directly in the file at a byte offset.
    case uncompressed(offset: Int, generation: Int)
    /// Stored as the `index`-th object of object stream `stream`.
    case compressed(stream: Int, index: Int)
}

/// The form of a cross-reference section, which an incremental update must repeat.
///
/// ```swift
/// document.xref.style == .stream   // an update is written as a cross-reference stream too
/// ```
public enum XRefStyle: Sendable, Equatable {
    /// A classic `xref` table followed by `trailer`.
    case table
    /// A cross-reference stream (PDF 1.5).
    case stream
}

/// The merged cross-reference data of a file: newest definitions win.
///
/// ```swift
/// let xref = try PDFDocument(path: "Janáček - Sinfonietta.pdf").xref
/// print(xref.size, xref.sectionCount, xref.isReconstructed)
/// ```
public struct XRefTable: Sendable {
    public internal(set) var entries: [Int: XRefEntry] = [:]
    /// The newest trailer (for an xref stream: its dictionary).
    public internal(set) var trailer: PDFDictionary = [:]
    /// Style of the newest section.
    public internal(set) var style: XRefStyle = .table
    /// Offset of the newest section (what `startxref` points to).
    public internal(set) var startOffset: Int = 0
    /// Whether the table was rebuilt by scanning the file.
    public internal(set) var isReconstructed = false
    /// Whether reading met a broken section or a `/Prev` loop, so entries may be missing.
    public internal(set) var isDamaged = false
    /// Number of sections read (1 + incremental updates).
    public internal(set) var sectionCount = 0
    /// Where the cross-reference streams read start (readers find them by these offsets,
    /// never by their own entries, which writers often leave stale).
    var streamSectionOffsets: [Int] = []

    /// The largest object number that is defined, plus one.
    public var size: Int { (entries.keys.max() ?? 0) + 1 }
}
