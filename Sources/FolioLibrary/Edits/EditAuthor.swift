import Foundation

/// Who makes a change when nobody is named: the one default of `folio` and `folio serve`
/// for the author written into new marks (`/T`) and into the catalog's undo history.
///
/// ```swift
/// EditAuthor.current(["FOLIO_AUTHOR": "Chloé Dvořák"])   // "Chloé Dvořák"
/// ```
public enum EditAuthor {
    /// `$FOLIO_AUTHOR` when set and not blank, else the login name (`$USER`, `$LOGNAME`,
    /// the account's name), else "Folio".
    public static func current(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let named = ["FOLIO_AUTHOR", "USER", "LOGNAME"].lazy.compactMap { environment[$0]?.trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { !$0.isEmpty }
        if let named { return named }
        let account = NSUserName()
        return account.isEmpty ? "Folio" : account
    }
}
