/// Where an entry sits in an outline: its position among its siblings at each level,
/// 0-based in `indices`, written 1-based with dots ("2.1" is the first child of the
/// second top-level entry), as `folio toc` shows it.
///
/// ```swift
/// let path = PDFOutlinePath("2.1")   // indices [1, 0]
/// path?.parent?.description          // "2"
/// ```
public struct PDFOutlinePath: Sendable, Hashable, CustomStringConvertible, LosslessStringConvertible {
    /// 0-based positions from the top level down; never empty.
    public let indices: [Int]

    /// `indices` must be non-empty and non-negative.
    public init?(indices: [Int]) {
        guard !indices.isEmpty, indices.allSatisfy({ $0 >= 0 }) else { return nil }
        self.indices = indices
    }

    /// Parses the dotted 1-based form ("3", "2.1.4").
    public init?(_ description: String) {
        let parts = description.split(separator: ".", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { part in Int(part).flatMap { $0 >= 1 ? $0 - 1 : nil } }
        guard numbers.count == parts.count else { return nil }
        self.init(indices: numbers)
    }

    public var description: String { indices.map { String($0 + 1) }.joined(separator: ".") }

    /// The entry this one is a child of; nil at the top level.
    public var parent: PDFOutlinePath? { PDFOutlinePath(indices: Array(indices.dropLast())) }

    /// The depth, 0 for the top level.
    public var level: Int { indices.count - 1 }

    /// Whether the entry at `other` lies below this one.
    ///
    /// ```swift
    /// PDFOutlinePath("2")?.isAncestor(of: PDFOutlinePath("2.1")!)   // true
    /// ```
    public func isAncestor(of other: PDFOutlinePath) -> Bool {
        other.indices.count > indices.count && Array(other.indices.prefix(indices.count)) == indices
    }

    /// The path of this entry's child at `index` (0-based).
    public func child(_ index: Int) -> PDFOutlinePath {
        PDFOutlinePath(indices: indices + [max(index, 0)]) ?? self
    }
}

/// Where an entry goes when it is added or moved, named by entries of the outline as it
/// is before the change.
///
/// ```swift
/// try outline.move(PDFOutlinePath("4")!, to: .lastChild(of: PDFOutlinePath("1")))
/// ```
public enum PDFOutlinePosition: Sendable, Equatable {
    /// Just before the entry at the path, among its siblings.
    case before(PDFOutlinePath)
    /// Just after the entry at the path.
    case after(PDFOutlinePath)
    /// The first child of the entry at the path; nil for the top level.
    case firstChild(of: PDFOutlinePath?)
    /// The last child of the entry at the path; nil for the top level.
    case lastChild(of: PDFOutlinePath?)
}
