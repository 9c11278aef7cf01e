import Foundation

/// A song sheet in ChordPro, the format of OnSong, SongbookPro and most song-sheet apps:
/// directives in braces (`{title: …}`, `{key: G}`, `{start_of_chorus}`), `[C]` chords inside
/// the lyrics before the syllable they fall on, `#` comment lines.
///
/// ```swift
/// let song = ChordProSong(parsing: "{title: Amazing Grace}\n{key: G}\nA[G]mazing [G7]grace")
/// song.title      // "Amazing Grace"
/// song.lines[0]   // lyrics: "A", then "mazing " under G, "grace" under G7
/// ```
public struct ChordProSong: Sendable, Equatable {
    public var title: String?
    public var subtitles: [String] = []
    public var artists: [String] = []
    public var composers: [String] = []
    public var lyricists: [String] = []
    public var key: String?
    public var tempo: String?
    public var time: String?
    public var capo: String?
    public var duration: String?
    public var album: String?
    public var year: String?
    public var tags: [String] = []
    public var lines: [Line] = []
    /// Directives not understood, with their line numbers.
    public var warnings: [String] = []

    /// A piece of a lyric line: the chord over its start (if any) and the text.
    ///
    /// ```swift
    /// ChordProSong(parsing: "[Am]Ой, то не [E]вечер").lines.first?.kind   // .lyrics([Segment(chord: "Am", text: "Ой, то не "), …])
    /// ```
    public struct Segment: Sendable, Equatable {
        public var chord: String?
        public var text: String

        public init(chord: String?, text: String) {
            self.chord = chord
            self.text = text
        }
    }

    /// The kinds of section a song has.
    ///
    /// ```swift
    /// ChordProSong(parsing: "{start_of_chorus}\nLa la\n{end_of_chorus}").lines.first?.kind   // .sectionStart(.chorus, label: nil)
    /// ```
    public enum Section: String, Sendable {
        case chorus, verse, bridge, tab, grid, other
    }

    /// One line of the body, with its line number in the file.
    ///
    /// ```swift
    /// for line in ChordProSong(parsing: text).lines { print(line.number, line.kind) }
    /// ```
    public struct Line: Sendable, Equatable {
        /// What a line of the body is.
        ///
        /// ```swift
        /// if case .comment(let note) = line.kind { print("comment:", note) }
        /// ```
        public enum Kind: Sendable, Equatable {
            case lyrics([Segment])
            case comment(String)
            case sectionStart(Section, label: String?)
            case sectionEnd(Section)
            /// A line of a tab or grid section, shown as written.
            case verbatim(String)
            /// `{chorus}`: the chorus again here.
            case chorusAgain(label: String?)
            case blank
            case newPage
        }

        public var kind: Kind
        public var number: Int
    }

    public init(parsing text: String) {
        var verbatim: Section?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("{"), trimmed.hasSuffix("}"), trimmed.count >= 2 {
                let (name, value) = ChordProSong.directive(String(trimmed.dropFirst().dropLast()))
                if let section = verbatim, name == "end_of_\(section.rawValue)" {
                    verbatim = nil
                    lines.append(Line(kind: .sectionEnd(section), number: number))
                    continue
                }
                if verbatim == nil {
                    apply(name, value, number: number, verbatim: &verbatim)
                    continue
                }
            }
            if verbatim != nil {
                lines.append(Line(kind: .verbatim(String(raw)), number: number))
            } else if trimmed.hasPrefix("#") {
                continue
            } else if trimmed.isEmpty {
                lines.append(Line(kind: .blank, number: number))
            } else {
                lines.append(Line(kind: .lyrics(ChordProSong.segments(String(raw))), number: number))
            }
        }
        while lines.last?.kind == .blank { lines.removeLast() }
    }

    /// A directive's canonical name and its value: `{t: X}`, `{title X}`, `{meta: title X}`.
    static func directive(_ body: String) -> (String, String) {
        let separator = body.firstIndex { $0 == ":" || $0 == " " }
        var name = (separator.map { String(body[..<$0]) } ?? body).lowercased()
        var value = separator.map { String(body[body.index(after: $0)...]).trimmingCharacters(in: .whitespaces) } ?? ""
        if name == "meta" {
            let parts = value.split(separator: " ", maxSplits: 1)
            name = parts.first.map { $0.lowercased() } ?? ""
            value = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
        }
        let aliases = ["t": "title", "st": "subtitle", "c": "comment", "ci": "comment_italic", "cb": "comment_box",
                       "soc": "start_of_chorus", "eoc": "end_of_chorus", "sov": "start_of_verse", "eov": "end_of_verse",
                       "sob": "start_of_bridge", "eob": "end_of_bridge", "sot": "start_of_tab", "eot": "end_of_tab",
                       "sog": "start_of_grid", "eog": "end_of_grid", "np": "new_page", "npp": "new_physical_page",
                       "highlight": "comment"]
        return (aliases[name] ?? name, value)
    }

    private mutating func apply(_ name: String, _ value: String, number: Int, verbatim: inout Section?) {
        // A section label is the value, or its label="…" attribute.
        var label: String? = value.isEmpty ? nil : value
        if let text = label, text.lowercased().hasPrefix("label=") {
            label = String(text.dropFirst(6)).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
        switch name {
        case "title": title = value
        case "subtitle": subtitles.append(value)
        case "artist": artists.append(value)
        case "composer": composers.append(value)
        case "lyricist": lyricists.append(value)
        case "key": key = value
        case "tempo": tempo = value
        case "time": time = value
        case "capo": capo = value
        case "duration": duration = value
        case "album": album = value
        case "year": year = value
        case "tag": tags.append(value)
        case "comment", "comment_italic", "comment_box": lines.append(Line(kind: .comment(value), number: number))
        case "chorus": lines.append(Line(kind: .chorusAgain(label: label), number: number))
        case "new_page", "new_physical_page": lines.append(Line(kind: .newPage, number: number))
        case "column_break", "colb", "columns", "col", "pagetype", "titles", "define", "chord", "transpose", "x_":
            break
        default:
            if name.hasPrefix("start_of_") || name.hasPrefix("end_of_") {
                let start = name.hasPrefix("start_of_")
                let kind = Section(rawValue: String(name.dropFirst(start ? 9 : 7))) ?? .other
                if start {
                    lines.append(Line(kind: .sectionStart(kind, label: label), number: number))
                    if kind == .tab || kind == .grid { verbatim = kind }
                } else {
                    lines.append(Line(kind: .sectionEnd(kind), number: number))
                }
            } else if !name.hasPrefix("x_"), !name.hasPrefix("text") && !name.hasPrefix("chord") {
                warnings.append("line \(number): the directive {\(name)} is not understood; left out")
            }
        }
    }

    /// A lyric line cut at its chords: text before the first chord has none.
    static func segments(_ line: String) -> [Segment] {
        var segments: [Segment] = []
        var chord: String?
        var text = ""
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            text += rest[..<open]
            if chord != nil || !text.isEmpty { segments.append(Segment(chord: chord, text: text)) }
            chord = String(rest[rest.index(after: open)..<close]).trimmingCharacters(in: .whitespaces)
            text = ""
            rest = rest[rest.index(after: close)...]
        }
        text += rest
        segments.append(Segment(chord: chord, text: text))
        return segments
    }

    /// The song as forScore metadata: title, composers (artists, composers and lyricists), the
    /// key where it is one forScore knows, duration and tags; values that do not fit are warnings.
    public func edit(fallbackTitle: String) -> (edit: ScoreEdit, warnings: [String]) {
        var edit = ScoreEdit()
        var warnings: [String] = []
        edit.title = title.flatMap { $0.isEmpty ? nil : $0 } ?? fallbackTitle
        var people: [String] = []
        for name in artists + composers + lyricists where !name.isEmpty && !people.contains(name) { people.append(name) }
        if !people.isEmpty { edit.composers = people }
        if !tags.isEmpty { edit.tags = tags.filter { !$0.isEmpty } }
        if let key, !key.isEmpty {
            do { edit.key = try MusicalKey(parsing: key) } catch { warnings.append("key \"\(key)\" is not one forScore stores; left out") }
        }
        if let duration, !duration.isEmpty {
            do { edit.duration = try ScoreDuration.parse(duration) } catch { warnings.append("\(error)") }
        }
        return (edit, warnings)
    }
}
