/// An indirect reference `N G R`.
///
/// ```swift
/// let root = PDFReference(number: 1, generation: 0)
/// ```
public struct PDFReference: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var number: Int
    public var generation: Int

    public init(number: Int, generation: Int = 0) {
        self.number = number
        self.generation = generation
    }

    public var description: String { "\(number) \(generation) R" }

    public static func < (lhs: PDFReference, rhs: PDFReference) -> Bool {
        (lhs.number, lhs.generation) < (rhs.number, rhs.generation)
    }
}
