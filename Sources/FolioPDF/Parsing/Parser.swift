/// Builds objects from tokens. Tolerant: a missing `>>` or `]`, a key without a value or
/// stray keywords become warnings, as in qpdf.
///
/// Nesting is limited (``maxDepth``) so hostile input cannot overflow the stack, an array
/// or dictionary to ``maxItems`` entries, and every object parsed is charged to the
/// document's budget (``WarningLog/chargeObject(offset:)``).
struct Parser {
    var lexer: Lexer
    let log: WarningLog?
    static let maxDepth = 100
    static let maxItems = 1 << 22

    init(bytes: UnsafeRawBufferPointer, position: Int = 0, log: WarningLog? = nil) {
        lexer = Lexer(bytes: bytes, position: position, log: log)
        self.log = log
    }

    var position: Int {
        get { lexer.position }
        set { lexer.position = newValue }
    }

    /// Parses one object. Keywords that end an object (`endobj`, `stream`, …) are left
    /// unread and give `.null`.
    mutating func parseObject() throws -> PDFObject {
        try parseObject(depth: 0)
    }

    private mutating func parseObject(depth: Int) throws -> PDFObject {
        guard depth < Parser.maxDepth else {
            throw PDFError(.syntax, "objects nested deeper than \(Parser.maxDepth) levels", offset: lexer.position)
        }
        let start = lexer.position
        let token = lexer.next()
        return try object(from: token, start: start, depth: depth)
    }

    private mutating func object(from token: Token, start: Int, depth: Int) throws -> PDFObject {
        guard depth < Parser.maxDepth else {
            throw PDFError(.syntax, "objects nested deeper than \(Parser.maxDepth) levels", offset: start)
        }
        try log?.chargeObject(offset: start)
        switch token {
        case .integer(let value):
            if value >= 0, let generation = lexer.readReferenceTail() {
                return .reference(PDFReference(number: value, generation: generation))
            }
            return .integer(value)
        case .real(let value):
            return .real(value)
        case .string(let value):
            return .string(value)
        case .name(let value):
            return .name(value)
        case .arrayOpen:
            return .array(try parseArray(start: start, depth: depth))
        case .dictOpen:
            return .dictionary(try parseDictionary(start: start, depth: depth))
        case .keyword(let word):
            switch word {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            case "null": return .null
            default:
                if Parser.isStructureKeyword(word) {
                    // Leave `endobj`, `stream`… for the caller.
                    lexer.position = start
                } else {
                    log?.add("unknown keyword '\(word.prefix(20))' read as null", offset: start)
                }
                return .null
            }
        case .eof:
            return .null
        case .arrayClose, .dictClose, .braceOpen, .braceClose:
            log?.add("unexpected delimiter", offset: start)
            return .null
        }
    }

    private mutating func parseArray(start: Int, depth: Int) throws -> [PDFObject] {
        var items: [PDFObject] = []
        while true {
            let itemStart = lexer.position
            let token = lexer.next()
            switch token {
            case .arrayClose:
                return items
            case .eof:
                log?.add("unterminated array", offset: start)
                return items
            case .dictClose:
                log?.add("'>>' inside array; array closed", offset: itemStart)
                lexer.position = itemStart
                return items
            case .keyword(let word) where !["true", "false", "null"].contains(word):
                if Parser.isStructureKeyword(word) {
                    log?.add("unterminated array", offset: start)
                    lexer.position = itemStart
                    return items
                }
                log?.add("unexpected '\(word.prefix(20))' in array; skipped", offset: itemStart)
            default:
                guard items.count < Parser.maxItems else {
                    throw PDFError(.limitExceeded, "array of more than \(Parser.maxItems) items", offset: start)
                }
                items.append(try object(from: token, start: itemStart, depth: depth + 1))
            }
        }
    }

    private mutating func parseDictionary(start: Int, depth: Int) throws -> PDFDictionary {
        var dictionary = PDFDictionary()
        while true {
            let keyStart = lexer.position
            let token = lexer.next()
            switch token {
            case .dictClose:
                return dictionary
            case .eof:
                log?.add("unterminated dictionary", offset: start)
                return dictionary
            case .name(let key):
                let valueStart = lexer.position
                let valueToken = lexer.next()
                switch valueToken {
                case .dictClose:
                    log?.add("dictionary key /\(key) has no value", offset: valueStart)
                    return dictionary
                case .keyword(let word) where Parser.isStructureKeyword(word):
                    log?.add("unterminated dictionary", offset: start)
                    lexer.position = valueStart
                    return dictionary
                default:
                    guard dictionary.count < Parser.maxItems else {
                        throw PDFError(.limitExceeded, "dictionary of more than \(Parser.maxItems) entries", offset: start)
                    }
                    dictionary[key] = try object(from: valueToken, start: valueStart, depth: depth + 1)
                }
            case .keyword(let word) where Parser.isStructureKeyword(word):
                log?.add("unterminated dictionary", offset: start)
                lexer.position = keyStart
                return dictionary
            default:
                log?.add("dictionary key is not a name; skipped", offset: keyStart)
                _ = try object(from: token, start: keyStart, depth: depth + 1)
            }
        }
    }

    /// Keywords that cannot occur inside an object and mean the object has ended.
    static func isStructureKeyword(_ word: String) -> Bool {
        switch word {
        case "endobj", "stream", "endstream", "obj", "xref", "trailer", "startxref": return true
        default: return false
        }
    }
}
