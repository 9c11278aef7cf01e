import ArgumentParser
import Foundation

/// What ArgumentParser leaves unsaid when a command line fails to parse: an option the
/// command does not know gets the nearest ones offered ("--ratng": did you mean
/// "--rating"?), and a word past the arguments a command takes is named. Asked only after
/// parsing failed, since it reads the whole command tree (ArgumentParser's help dump).
///
/// ```
/// $ folio meta set Ωδή.pdf --ratng 3
/// folio meta set: unknown option '--ratng'; did you mean '--rating'?
/// $ folio annot remove Ωδή.pdf 7
/// folio annot remove: unexpected argument '7' (the command takes <file>); folio annot remove --help shows its options
/// ```
enum UsageCheck {
    /// The message for the first unknown option or surplus argument in `arguments`, or nil.
    static func message(for arguments: [String], root: ParsableCommand.Type) -> String? {
        guard let (command, name, rest) = command(for: arguments, root: root) else { return nil }
        return check(rest, command: command, name: name)
    }

    /// The command `arguments` name as a person reads it ("folio members add"), however the
    /// rest of the line went: what every error message starts with.
    static func commandName(for arguments: [String], root: ParsableCommand.Type) -> String {
        command(for: arguments, root: root)?.name ?? root._commandName
    }

    /// The command `arguments` name (its help dump's node), its name, and the words after it.
    private static func command(for arguments: [String], root: ParsableCommand.Type)
        -> (command: [String: Any], name: String, rest: [String])? {
        guard let tree = try? JSONSerialization.jsonObject(with: Data(root._dumpHelp().utf8)) as? [String: Any],
              var command = tree["command"] as? [String: Any] else { return nil }
        var path = [root._commandName]
        var rest = arguments[...]
        while let subcommands = command["subcommands"] as? [[String: Any]], !subcommands.isEmpty {
            let named = rest.first.flatMap { word in
                subcommands.first { $0["commandName"] as? String == word || ($0["aliases"] as? [String] ?? []).contains(word) }
            }
            // A group with a default command hands it the words that name none ("folio toc FILE").
            let fallback = (command["defaultSubcommand"] as? String).flatMap { name in
                subcommands.first { $0["commandName"] as? String == name }
            }
            guard let next = named ?? fallback, let name = next["commandName"] as? String else { break }
            if named != nil { rest = rest.dropFirst() }
            command = next
            path.append(name)
        }
        return (command, path.joined(separator: " "), Array(rest))
    }

    private struct Argument {
        var longNames: [String]
        var shortNames: [String]
        var kind: String
        var repeating: Bool
        var strategy: String
        var valueName: String
    }

    private static func check(_ words: [String], command: [String: Any], name: String) -> String? {
        let arguments = (command["arguments"] as? [[String: Any]] ?? []).map { info in
            let names = info["names"] as? [[String: Any]] ?? []
            return Argument(longNames: names.filter { $0["kind"] as? String != "short" }.compactMap { $0["name"] as? String },
                            shortNames: names.filter { $0["kind"] as? String == "short" }.compactMap { $0["name"] as? String },
                            kind: info["kind"] as? String ?? "", repeating: info["isRepeating"] as? Bool ?? false,
                            strategy: info["parsingStrategy"] as? String ?? "default", valueName: info["valueName"] as? String ?? "")
        }
        let known = ["help", "version"] + arguments.flatMap(\.longNames)
        let positionals = arguments.filter { $0.kind == "positional" }
        var index = 0
        var positionalCount = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" { break }
            if word.hasPrefix("--") {
                let spelled = String(word.dropFirst(2).prefix { $0 != "=" })
                guard let argument = arguments.first(where: { $0.longNames.contains(spelled) }) else {
                    if known.contains(spelled) { continue }
                    return unknown(word: "--" + spelled, known: known, command: name)
                }
                if argument.kind == "option", !word.contains("=") { index = skipValues(of: argument, in: words, from: index) }
            } else if word.hasPrefix("-"), word.count == 2, let argument = arguments.first(where: { $0.shortNames.contains(String(word.dropFirst())) }) {
                if argument.kind == "option" { index = skipValues(of: argument, in: words, from: index) }
            } else if !word.hasPrefix("-") || Double(word) != nil {
                positionalCount += 1
                let takes = positionals.contains(where: \.repeating) ? Int.max : positionals.count
                if positionalCount > takes {
                    let shown = positionals.map { "<\($0.valueName)>" }.joined(separator: " ")
                    return "\(name): unexpected argument '\(String(word.prefix(64)))'"
                        + (shown.isEmpty ? " (the command takes none)" : " (the command takes \(shown))")
                        + "; \(name) --help shows its options"
                }
            }
        }
        return nil
    }

    /// The index after an option's value(s).
    private static func skipValues(of argument: Argument, in words: [String], from index: Int) -> Int {
        switch argument.strategy {
        case "upToNextOption":
            var next = index
            while next < words.count, !words[next].hasPrefix("-") || Double(words[next]) != nil { next += 1 }
            return next
        case "allRemainingInput":
            return words.count
        default:
            return min(index + 1, words.count)
        }
    }

    private static func unknown(word: String, known: [String], command: String) -> String {
        let spelled = String(word.dropFirst(2)).lowercased()
        // A word too long to be an option is not weighed (its table would be large).
        let ranked = spelled.count > 64 ? [] : known
            .map { (name: $0, distance: CommandSuggestion.distance(spelled, $0)) }
            .filter { $0.distance <= max(2, spelled.count / 3) || (spelled.count >= 3 && $0.name.hasPrefix(spelled)) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
        let shown = String(word.prefix(66))
        let offered = ranked.prefix(3).map { "'--\($0.name)'" }
        return "\(command): unknown option '\(shown)'"
            + (offered.isEmpty ? "; \(command) --help lists its options" : "; did you mean \(offered.joined(separator: " or "))?")
    }
}
