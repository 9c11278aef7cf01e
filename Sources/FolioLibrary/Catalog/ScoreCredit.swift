import Foundation

/// A person a file names beyond forScore's fields, by role: the composer a notation program
/// wrote where forScore does not look (LilyPond's `/Composer`, MuseScore's page heading), the
/// arranger (`/Arranger`) and the lyricist (`/Poet`). The catalog shows and searches them; a
/// derived composer is counted as the score's composer until forScore's fields name one, while
/// an arranger or a lyricist never is. The file keeps them where they are (`folio meta adopt`
/// writes a composer into forScore's fields).
///
/// ```swift
/// for credit in try catalog.show("Faure-Apres_un_Reve_Op_7.pdf")[0].credits {
///     print(credit.role, credit.name, credit.source)   // composer Gabriel Fauré /Composer; lyricist Romain Bussine /Poet
/// }
/// ```
public struct ScoreCredit: Sendable, Equatable, Codable {
    /// What the person did for the score.
    public enum Role: String, Sendable, Codable {
        case composer, arranger, lyricist
    }

    public var name: String
    public var role: Role
    /// Where the file names them: "/Composer", "/Arranger", "/Poet" or "page heading".
    public var source: String

    public init(name: String, role: Role, source: String) {
        self.name = name
        self.role = role
        self.source = source
    }

    /// The people beside a score's composers in a listing, by role — "arr. Diego F. Guillen",
    /// "words Romain Bussine", both joined by " · " — or "" when the credits name only
    /// composers (those are shown as the score's composers already).
    ///
    /// ```swift
    /// ScoreCredit.byline([ScoreCredit(name: "Diego F. Guillen", role: .arranger, source: "/Arranger")])
    /// // "arr. Diego F. Guillen"
    /// ```
    public static func byline(_ credits: [ScoreCredit]) -> String {
        let roles: [(Role, String)] = [(.arranger, "arr."), (.lyricist, "words")]
        return roles.compactMap { role, label in
            let names = credits.filter { $0.role == role }.map(\.name)
            return names.isEmpty ? nil : "\(label) \(names.joined(separator: ", "))"
        }.joined(separator: " · ")
    }

    /// The credits of the people `ProducerConventions` found, by the rule that found each.
    static func credits(_ people: [(name: String, rule: String)]) -> [ScoreCredit] {
        people.compactMap { person in
            switch person.rule {
            case "composer": ScoreCredit(name: person.name, role: .composer, source: "/Composer")
            case "page-heading": ScoreCredit(name: person.name, role: .composer, source: "page heading")
            case "arranger": ScoreCredit(name: person.name, role: .arranger, source: "/Arranger")
            case "poet": ScoreCredit(name: person.name, role: .lyricist, source: "/Poet")
            default: nil
            }
        }
    }

    /// The stored form: a JSON array, nil for none.
    static func stored(_ credits: [ScoreCredit]) -> String? {
        guard !credits.isEmpty, let data = try? JSONEncoder().encode(credits) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The credits of a stored form ([] for none or a form this version cannot read).
    static func read(_ text: String?) -> [ScoreCredit] {
        guard let text, !text.isEmpty else { return [] }
        return (try? JSONDecoder().decode([ScoreCredit].self, from: Data(text.utf8))) ?? []
    }
}
