import FolioPDF
import Foundation

/// Property lists read from files people send: binary ones (`bplist00`) by Folio's own
/// bounded reader, XML ones by Foundation. Foundation's binary reader stops the process on
/// some damaged files (a set whose members do not bridge, found by Fuzz/FuzzOpenIn), so it
/// never sees one. Values come back as Foundation gives them: String, NSNumber, Bool, Data,
/// Date, [Any] (arrays and sets) and [String: Any].
///
/// ```swift
/// let root = try PropertyList.read(bytes) as? [String: Any]
/// ```
public enum PropertyList {
    /// Most objects one file may expand to (shared references counted each time they are used).
    public static let maxValues = 1_000_000
    /// Deepest nesting read.
    public static let maxDepth = 64

    public static func read(_ bytes: [UInt8]) throws -> Any {
        if bytes.starts(with: Array("bplist".utf8)) {
            var reader = try BinaryReader(bytes)
            return try reader.value(reader.top, depth: 0)
        }
        do {
            return try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw ScoreError(.malformed, "not a property list: \(error.localizedDescription)")
        }
    }

    private struct BinaryReader {
        let bytes: [UInt8]
        let offsets: [Int]
        let referenceSize: Int
        let top: Int
        var produced = 0

        init(_ bytes: [UInt8]) throws {
            guard bytes.starts(with: Array("bplist00".utf8)), bytes.count >= 40 else {
                throw ScoreError(.malformed, "not a binary property list (version bplist00 with its 32-byte trailer)")
            }
            self.bytes = bytes
            let trailer = bytes.count - 32
            let offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            let count = BinaryReader.number(bytes, trailer + 8, 8)
            top = BinaryReader.number(bytes, trailer + 16, 8)
            let table = BinaryReader.number(bytes, trailer + 24, 8)
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count >= 1, count <= trailer,
                  top >= 0, top < count, table >= 8, table <= trailer, count <= (trailer - table) / offsetSize
            else {
                throw ScoreError(.malformed, "the binary property list's trailer is inconsistent (object count, sizes or offset table)")
            }
            offsets = (0..<count).map { BinaryReader.number(bytes, table + $0 * offsetSize, offsetSize) }
        }

        /// A big-endian unsigned number of `size` bytes at `at` (the caller checked the bounds);
        /// values past Int's range come back negative and fail the range checks.
        static func number(_ bytes: [UInt8], _ at: Int, _ size: Int) -> Int {
            var value: UInt64 = 0
            for index in at..<(at + size) { value = value << 8 | UInt64(bytes[index]) }
            return Int(truncatingIfNeeded: value)
        }

        private func need(_ at: Int, _ count: Int) throws {
            guard at >= 0, count >= 0, at <= bytes.count - 32, count <= bytes.count - 32 - at else {
                throw ScoreError(.malformed, "the binary property list is damaged: an object at \(at) runs past the object area")
            }
        }

        /// The length in a marker's low nibble, or in the integer object after it (0xF).
        private func length(_ info: Int, after at: inout Int) throws -> Int {
            guard info == 0xF else { return info }
            try need(at, 1)
            let marker = Int(bytes[at])
            guard marker >> 4 == 1, marker & 0xF <= 3 else {
                throw ScoreError(.malformed, "the binary property list is damaged: a length at \(at) is not an integer")
            }
            let size = 1 << (marker & 0xF)
            try need(at + 1, size)
            let value = BinaryReader.number(bytes, at + 1, size)
            at += 1 + size
            guard value >= 0, value <= bytes.count else {
                throw ScoreError(.malformed, "the binary property list is damaged: a length of \(value) at \(at)")
            }
            return value
        }

        mutating func value(_ object: Int, depth: Int) throws -> Any {
            guard depth < PropertyList.maxDepth else {
                throw ScoreError(.limitExceeded, "the property list nests deeper than \(PropertyList.maxDepth) levels")
            }
            produced += 1
            guard produced <= PropertyList.maxValues else {
                throw ScoreError(.limitExceeded, "the property list expands to more than \(PropertyList.maxValues) values")
            }
            guard offsets.indices.contains(object) else {
                throw ScoreError(.malformed, "the binary property list refers to object \(object) of \(offsets.count)")
            }
            var at = offsets[object]
            try need(at, 1)
            let marker = Int(bytes[at]), info = marker & 0xF
            at += 1
            switch marker >> 4 {
            case 0x0:
                switch info {
                case 0x8: return false
                case 0x9: return true
                default: return NSNull()
                }
            case 0x1:
                let size = 1 << min(info, 4)
                try need(at, size)
                // 16-byte integers keep their low eight bytes; 8-byte ones are signed.
                return NSNumber(value: BinaryReader.number(bytes, at + max(0, size - 8), min(size, 8)))
            case 0x2:
                let size = 1 << info
                guard size == 4 || size == 8 else { throw ScoreError(.malformed, "a real of \(size) bytes at \(at)") }
                try need(at, size)
                let bits = UInt64(truncatingIfNeeded: BinaryReader.number(bytes, at, size))
                return NSNumber(value: size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
            case 0x3:
                try need(at, 8)
                let seconds = Double(bitPattern: UInt64(truncatingIfNeeded: BinaryReader.number(bytes, at, 8)))
                return Date(timeIntervalSinceReferenceDate: seconds.isFinite ? seconds : 0)
            case 0x4:
                let count = try length(info, after: &at)
                try need(at, count)
                return Data(bytes[at..<(at + count)])
            case 0x5:
                let count = try length(info, after: &at)
                try need(at, count)
                return String(decoding: bytes[at..<(at + count)], as: UTF8.self)
            case 0x6:
                let count = try length(info, after: &at)
                guard count <= bytes.count / 2 else { throw ScoreError(.malformed, "a string of \(count) characters at \(at)") }
                try need(at, 2 * count)
                return PDFTextString.utf16Text(bytes[at..<(at + 2 * count)], bigEndian: true)
            case 0x8:
                try need(at, info + 1)
                return NSNumber(value: BinaryReader.number(bytes, at, info + 1))
            case 0xA, 0xB, 0xC:
                let count = try length(info, after: &at)
                guard count <= bytes.count / referenceSize else { throw ScoreError(.malformed, "an array of \(count) items at \(at)") }
                try need(at, count * referenceSize)
                var items: [Any] = []
                for index in 0..<count {
                    items.append(try value(BinaryReader.number(bytes, at + index * referenceSize, referenceSize), depth: depth + 1))
                }
                return items
            case 0xD:
                let count = try length(info, after: &at)
                guard count <= bytes.count / (2 * referenceSize) else { throw ScoreError(.malformed, "a dictionary of \(count) entries at \(at)") }
                try need(at, 2 * count * referenceSize)
                var dictionary: [String: Any] = [:]
                for index in 0..<count {
                    let key = try value(BinaryReader.number(bytes, at + index * referenceSize, referenceSize), depth: depth + 1)
                    guard let name = key as? String else {
                        throw ScoreError(.malformed, "the binary property list has a dictionary key that is not a string")
                    }
                    let item = BinaryReader.number(bytes, at + (count + index) * referenceSize, referenceSize)
                    dictionary[name] = try value(item, depth: depth + 1)
                }
                return dictionary
            default:
                throw ScoreError(.malformed, "the binary property list has an object of unknown type 0x\(String(marker, radix: 16)) at \(at - 1)")
            }
        }
    }
}
