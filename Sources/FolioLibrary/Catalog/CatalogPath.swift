import Foundation

/// How the catalog names a file. A file's path is stored as the folder holds it (so it opens
/// on every filesystem) and looked up by its key: the path in Unicode's composed form (NFC).
/// Macs and forScore write names decomposed (NFD), browsers and most Linux tools composed;
/// both spell one name, so both find the same score, and two files whose names differ only
/// so are never catalogued as one (a scan gives the second a free name, see
/// ``LibraryScanner``).
///
/// ```swift
/// CatalogPath.key("Dvor\u{030C}a\u{0301}k.pdf") == "Dvořák.pdf"   // true, and byte for byte
/// CatalogPath.refusal(ofFileName: "evil\u{202E}fdp.exe")         // "…a bidirectional override…"
/// ```
public enum CatalogPath {
    /// The lookup key of a relative path: its NFC form.
    public static func key(_ path: String) -> String {
        // ASCII is its own NFC form; Foundation's mapping took 5 % of a scan's writing thread.
        path.utf8.allSatisfy({ $0 < 0x80 }) ? path : path.precomposedStringWithCanonicalMapping
    }

    /// Whether two paths are the same name to a person (and to the catalog).
    public static func sameName(_ a: String, _ b: String) -> Bool {
        key(a).utf8.elementsEqual(key(b).utf8)
    }

    /// Characters that make a file name show something other than what it is: bidirectional
    /// overrides, embeddings and isolates, and the invisible direction marks.
    static let directionControls: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                                                 0x2066, 0x2067, 0x2068, 0x2069]

    /// Why a received file name cannot be used as it is (a control character such as a tab
    /// or a line end, or a bidirectional override), nil when it can.
    public static func refusal(ofFileName name: String) -> String? {
        for scalar in name.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                return "the name holds a control character (\(String(format: "U+%04X", scalar.value))); rename the file"
            }
            if directionControls.contains(scalar.value) {
                return "the name holds a bidirectional override (\(String(format: "U+%04X", scalar.value))), which can disguise a name; rename the file"
            }
        }
        return nil
    }

    /// `name` without control characters and bidirectional overrides (for names Folio makes
    /// itself from what an archive or a setlist says).
    static func stripped(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.filter {
            $0.properties.generalCategory != .control && !directionControls.contains($0.value)
        }))
    }
}
