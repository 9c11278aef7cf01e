/// The decoded contents of one object stream (`/Type /ObjStm`), parsed once and cached
/// by the document, so a file with thousands of compressed objects is not re-inflated
/// per lookup.
struct ObjectStream {
    let source: ByteSource
    let first: Int
    let numbers: [Int]
    let offsets: [Int]

    init(stream: PDFStream, decoded: [UInt8], number: Int, log: WarningLog) throws {
        guard let count = stream.dictionary["N"]?.intValue, count >= 0,
            let first = stream.dictionary["First"]?.intValue, first >= 0, first <= decoded.count
        else {
            throw PDFError(.damaged, "object stream lacks a valid /N or /First", object: PDFReference(number: number))
        }
        source = ByteSource(data: decoded)
        self.first = first
        var lexer = Lexer(bytes: source.bytes, position: 0)
        var numbers: [Int] = []
        var offsets: [Int] = []
        numbers.reserveCapacity(min(count, decoded.count / 2))
        for _ in 0..<min(count, decoded.count / 2 + 1) {
            guard case .integer(let objectNumber) = lexer.next(), case .integer(let offset) = lexer.next(),
                lexer.position <= first + 1
            else {
                log.add("object stream header is shorter than /N says", object: PDFReference(number: number))
                break
            }
            numbers.append(objectNumber)
            offsets.append(offset)
        }
        self.numbers = numbers
        self.offsets = offsets
    }

    /// Where object `number` starts, when `index` is its place as the xref says (nil
    /// otherwise: ``object(number:index:log:)`` then finds it, or tells what is wrong).
    func start(of number: Int, index: Int) -> Int? {
        guard index >= 0, index < numbers.count, numbers[index] == number else { return nil }
        let (position, overflow) = first.addingReportingOverflow(offsets[index])
        return !overflow && position >= 0 && position < source.count ? position : nil
    }

    /// Parses the object at `index`, checking it is object `number` (or finding it).
    func object(number: Int, index: Int, log: WarningLog) throws -> PDFObject {
        var slot = index
        if slot >= numbers.count || numbers[slot] != number {
            guard let found = numbers.firstIndex(of: number) else {
                throw PDFError(.damaged, "object stream does not contain object \(number)")
            }
            log.add("xref gives the wrong index for an object in an object stream",
                    object: PDFReference(number: number))
            slot = found
        }
        let (position, overflow) = first.addingReportingOverflow(offsets[slot])
        guard !overflow, position >= 0, position < source.count else {
            throw PDFError(.damaged, "object offset outside its object stream", object: PDFReference(number: number))
        }
        var parser = Parser(bytes: source.bytes, position: position, log: log)
        return try parser.parseObject()
    }
}
