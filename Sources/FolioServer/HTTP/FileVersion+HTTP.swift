import Crypto
import FolioLibrary
import Foundation

extension FileVersion {
    /// Whether `If-None-Match` names `tag`: `*`, or a list of tags, weak ones compared
    /// weakly as RFC 9110 §13.1.2 says.
    static func matches(ifNoneMatch header: String?, tag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { item in
            let item = item.trimmingCharacters(in: .whitespaces)
            return item == "*" || item == tag || item == "W/" + tag
        }
    }

    /// The tag of one view of a file at `version` (the file's tag, `"size-modified"`): the
    /// version itself when the view hides nothing, else the version with a digest of what it
    /// hides (layers, marks: `"size-modified;v=…"`), so that a 304 never stands for what another
    /// view of the file showed. ``version(ifMatch:)`` takes the view part off again.
    static func tag(_ version: String, hiding hidden: [String]) -> String {
        guard !hidden.isEmpty, version.count >= 2, version.hasSuffix("\"") else { return version }
        let digest = SHA256.hash(data: Data(hidden.joined(separator: "\u{0}").utf8)).prefix(8)
            .map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
        return String(version.dropLast()) + ";v=\(digest)\""
    }

    /// The file's version an `If-Match` names: the header itself, or a view's tag
    /// (``tag(_:hiding:)``) without its view part.
    static func version(ifMatch header: String?) -> String? {
        guard let header, header.hasSuffix("\""), let mark = header.range(of: ";v=", options: .backwards) else { return header }
        let digest = header[mark.upperBound..<header.index(before: header.endIndex)]
        guard digest.count == 16, digest.allSatisfy(\.isHexDigit) else { return header }
        return String(header[..<mark.lowerBound]) + "\""
    }
}
