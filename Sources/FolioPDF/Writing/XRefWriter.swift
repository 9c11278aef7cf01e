import Crypto
import Foundation

/// Writes cross-reference sections: a classic table plus `trailer`, or a cross-reference
/// stream carrying the trailer keys.
enum XRefWriter {
    /// Appends a classic section (`xref` … `trailer` … `startxref`) for `entries`, which
    /// must list every object the section defines (object 0 included for a full table).
    static func writeTable(entries: [Int: XRefEntry], trailer: PDFDictionary, to out: inout [UInt8], base: Int) throws {
        let start = base + out.count
        PDFSerializer.append("xref\n", to: &out)
        for run in runs(of: entries.keys.sorted()) {
            PDFSerializer.append("\(run.first ?? 0) \(run.count)\n", to: &out)
            for number in run {
                switch entries[number] {
                case .uncompressed(let offset, let generation)?:
                    PDFSerializer.append(String(format: "%010d %05d n\r\n", offset, generation), to: &out)
                case .free?, nil:
                    PDFSerializer.append(number == 0 ? "0000000000 65535 f\r\n" : "0000000000 00001 f\r\n", to: &out)
                case .compressed?:
                    throw PDFError(.invalidArgument, "a classic xref table cannot list compressed object \(number)")
                }
            }
        }
        PDFSerializer.append("trailer\n", to: &out)
        try PDFSerializer.write(.dictionary(trailer), to: &out)
        PDFSerializer.append("\nstartxref\n\(start)\n%%EOF\n", to: &out)
    }

    /// Appends a cross-reference stream object `number` listing `entries` (plus itself),
    /// with the trailer keys in its dictionary.
    static func writeStream(entries: [Int: XRefEntry], number: Int, trailer: PDFDictionary, to out: inout [UInt8],
                            base: Int) throws {
        let start = base + out.count
        var all = entries
        all[number] = .uncompressed(offset: start, generation: 0)
        let numbers = all.keys.sorted()
        let maxField = all.values.map { entry -> Int in
            switch entry {
            case .free: return 0
            case .uncompressed(let offset, _): return offset
            case .compressed(let stream, _): return stream
            }
        }.max() ?? 0
        var width2 = 1
        while width2 < 8, maxField >= 1 << (8 * width2) { width2 += 1 }
        var data: [UInt8] = []
        data.reserveCapacity(numbers.count * (3 + width2))
        func field(_ value: Int, _ width: Int) {
            for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { data.append(UInt8((value >> shift) & 0xFF)) }
        }
        for number in numbers {
            switch all[number] {
            case .uncompressed(let offset, let generation)?:
                data.append(1); field(offset, width2); field(generation, 2)
            case .compressed(let stream, let index)?:
                data.append(2); field(stream, width2); field(index, 2)
            case .free?, nil:
                data.append(0); field(0, width2); field(number == 0 ? 65535 : 1, 2)
            }
        }
        var dictionary = trailer
        dictionary["Type"] = .name("XRef")
        dictionary["W"] = .array([.integer(1), .integer(width2), .integer(2)])
        dictionary["Index"] = .array(runs(of: numbers).flatMap { [.integer($0.first ?? 0), .integer($0.count)] })
        dictionary["Filter"] = .name("FlateDecode")
        dictionary["DecodeParms"] = nil
        let compressed = try FlateFilter.encode(data)
        try ObjectEmitter(security: nil, encryptNumber: nil)
            .emit(.stream(PDFStream(dictionary: dictionary, encodedData: compressed)),
                  as: PDFReference(number: number), into: &out)
        PDFSerializer.append("startxref\n\(start)\n%%EOF\n", to: &out)
    }

    /// Consecutive runs of sorted numbers.
    static func runs(of numbers: [Int]) -> [[Int]] {
        var result: [[Int]] = []
        for number in numbers {
            if let last = result.last?.last, last + 1 == number {
                result[result.count - 1].append(number)
            } else {
                result.append([number])
            }
        }
        return result
    }

    /// A new /ID: the first element kept (it keys the encryption of R2–R4 files), the
    /// second renewed, as ISO 32000 asks of an update.
    static func renewedID(_ old: PDFObject?, seed: Int) -> PDFObject {
        var material = Array("\(Date().timeIntervalSince1970) \(seed) \(UInt64.random(in: 0...UInt64.max))".utf8)
        var first: PDFString?
        if case .array(let items)? = old, let existing = items.first?.stringValue {
            first = existing
            material += existing.bytes
        }
        let fresh = PDFString(Array(Insecure.MD5.hash(data: material)), isHex: true)
        return .array([.string(first ?? fresh), .string(fresh)])
    }
}
