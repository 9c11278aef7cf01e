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
}
