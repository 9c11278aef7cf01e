import ArgumentParser

/// A word where a command group expects one of its commands ("folio libary list", "folio
/// library lsit"): ArgumentParser only says the argument is unexpected, so the nearest
/// command names are offered first, as git does.
///
/// ```
/// $ folio libary list
/// folio: 'libary' is not a folio command; did you mean 'library'?
/// $ folio search Widmung
/// folio: 'search' is not a folio command; did you mean 'library search'?
/// ```
enum CommandSuggestion {
    /// The message for the first unknown command word in `arguments`, or nil when every word
    /// names a command (or the line is for a command's own arguments).
    static func message(for arguments: [String], root: ParsableCommand.Type) -> String? {
        var command = root
        var path = [root._commandName]
        for word in arguments {
            let configuration = command.configuration
            // "help" is ArgumentParser's own command ("folio help meta set").
            guard !configuration.subcommands.isEmpty, configuration.defaultSubcommand == nil, !word.hasPrefix("-"),
                  word != "help" else { return nil }
            let names = configuration.subcommands.map { ($0._commandName, $0) }
            if let next = names.first(where: { $0.0 == word || $0.1.configuration.aliases.contains(word) }) {
                command = next.1
                path.append(next.0)
                continue
            }
            // A word longer than any command name could be is not weighed (its table would be large).
            let ranked = word.count > 64 ? [] : names.map { (name: $0.0, distance: distance(word.lowercased(), $0.0)) }
                .filter { $0.distance <= max(1, word.count / 3) || $0.name.hasPrefix(word.lowercased()) }
                .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
            // A command of a group below, named without its group ("folio search" for
            // "folio library search"), is offered first.
            let nested = names.flatMap { name, group in
                group.configuration.subcommands.filter { $0._commandName == word.lowercased() }.map { "\(name) \($0._commandName)" }
            }
            let group = path.joined(separator: " ")
            let offered = (nested + ranked.map(\.name)).prefix(3).map { "'\($0)'" }
            return "\(group): '\(word)' is not a \(group) command"
                + (offered.isEmpty ? "; \(group) --help lists them" : "; did you mean \(offered.joined(separator: " or "))?")
        }
        return nil
    }

    /// Edit distance (insertions, deletions, substitutions; a swap of neighbours counts once).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[a.count][b.count]
    }
}
