import Foundation

/// An instrument a part is written for, by its English name, with the section of the
/// ensemble it plays in. ``Instrument/named(_:)`` knows the names musicians put on parts in
/// English, German, French, Italian, Spanish, Czech, Russian, Greek and Japanese.
///
/// ```swift
/// Instrument.named("Trompete")      // Trumpet, brass
/// Instrument.named("Скрипка")       // Violin, strings
/// Instrument.named("lesní roh")     // Horn, brass
/// ```
public struct Instrument: Sendable, Hashable, Codable {
    /// The English name every spelling maps to ("Violin" for Violine, violon, Скрипка…).
    public let name: String
    public let section: Section

    /// The sections of an ensemble, which stand in for a part a player lacks (a `Strings`
    /// part for a violinist, a `Brass` part for a horn player).
    ///
    /// ```swift
    /// Instrument.named("Tuba")?.section == .brass
    /// ```
    public enum Section: String, Sendable, Hashable, Codable, CaseIterable {
        case strings, woodwinds, brass, percussion, keyboards, voices, rhythm
    }

    public init(name: String, section: Section) {
        self.name = name
        self.section = section
    }

    /// The instrument a name means (any case, with or without accents), or nil.
    ///
    /// ```swift
    /// Instrument.named("VIOLONCELLE")?.name == "Cello"
    /// ```
    public static func named(_ text: String) -> Instrument? {
        let key = PartName.fold(text)
        return vocabulary[key]
    }

    /// The section a name means ("Strings", "Streicher", "Blech", "cuivres"…), or nil.
    ///
    /// ```swift
    /// Instrument.section(named: "Holzbläser") == .woodwinds
    /// ```
    public static func section(named text: String) -> Section? {
        sectionNames[PartName.fold(text)]
    }

    /// The English names of every instrument known, grouped by section (for a picker).
    public static var all: [Instrument] {
        var seen = Set<String>()
        return table.compactMap { entry in seen.insert(entry.0).inserted ? Instrument(name: entry.0, section: entry.1) : nil }
    }

    /// Each instrument's English name, its section, and its other names. The first name is
    /// the one shown.
    private static let table: [(String, Section, [String])] = [
        ("Violin", .strings, ["violin", "violine", "geige", "violon", "violino", "violín", "housle", "скрипка", "βιολί", "ヴァイオリン", "バイオリン", "小提琴"]),
        ("Viola", .strings, ["viola", "bratsche", "альт", "βιόλα", "ヴィオラ"]),
        ("Cello", .strings, ["cello", "violoncello", "violoncelle", "violonchelo", "виолончель", "βιολοντσέλο", "チェロ", "大提琴"]),
        ("Double Bass", .strings, ["double bass", "contrabass", "kontrabass", "contrebasse", "contrabbasso", "contrabajo", "kontrabas", "контрабас", "κοντραμπάσο", "コントラバス", "string bass", "upright bass"]),
        ("Harp", .strings, ["harp", "harfe", "harpe", "arpa", "harfa", "арфа", "ハープ"]),
        ("Flute", .woodwinds, ["flute", "flöte", "querflöte", "flûte", "flauto", "flauta", "flétna", "флейта", "φλάουτο", "フルート"]),
        ("Piccolo", .woodwinds, ["piccolo", "pikkoloflöte", "piccolo flute", "pikola", "пикколо", "ピッコロ"]),
        ("Oboe", .woodwinds, ["oboe", "hautbois", "hoboj", "гобой", "όμποε", "オーボエ"]),
        ("English Horn", .woodwinds, ["english horn", "cor anglais", "englischhorn", "corno inglese", "английский рожок"]),
        ("Clarinet", .woodwinds, ["clarinet", "klarinette", "clarinette", "clarinetto", "clarinete", "klarinet", "кларнет", "κλαρινέτο", "クラリネット"]),
        ("Bass Clarinet", .woodwinds, ["bass clarinet", "bassklarinette", "clarinette basse", "clarinetto basso", "басовый кларнет"]),
        ("Bassoon", .woodwinds, ["bassoon", "fagott", "basson", "fagotto", "fagot", "фагот", "φαγκότο", "ファゴット"]),
        ("Contrabassoon", .woodwinds, ["contrabassoon", "kontrafagott", "contrebasson", "controfagotto"]),
        ("Recorder", .woodwinds, ["recorder", "blockflöte", "flûte à bec", "flauto dolce", "zobcová flétna", "блокфлейта", "リコーダー"]),
        ("Soprano Saxophone", .woodwinds, ["soprano saxophone", "soprano sax", "sopransaxophon"]),
        ("Alto Saxophone", .woodwinds, ["alto saxophone", "alto sax", "altsaxophon", "saxophone alto", "sax alto", "альт-саксофон", "アルトサックス"]),
        ("Tenor Saxophone", .woodwinds, ["tenor saxophone", "tenor sax", "tenorsaxophon", "saxophone ténor", "sax tenore", "тенор-саксофон", "テナーサックス"]),
        ("Baritone Saxophone", .woodwinds, ["baritone saxophone", "baritone sax", "bari sax", "baritonsaxophon", "saxophone baryton"]),
        ("Saxophone", .woodwinds, ["saxophone", "sax", "saxophon", "sassofono", "saxofón", "saxofon", "саксофон", "σαξόφωνο", "サクソフォーン", "サックス"]),
        ("Trumpet", .brass, ["trumpet", "trompete", "trompette", "tromba", "trompeta", "trubka", "труба", "τρομπέτα", "トランペット", "小号"]),
        ("Cornet", .brass, ["cornet", "kornett", "cornetto", "корнет"]),
        ("Flugelhorn", .brass, ["flugelhorn", "flügelhorn", "bugle", "флюгельгорн"]),
        ("Horn", .brass, ["horn", "french horn", "waldhorn", "cor", "corno", "trompa", "lesní roh", "валторна", "κόρνο", "ホルン"]),
        ("Trombone", .brass, ["trombone", "posaune", "trombón", "pozoun", "тромбон", "τρομπόνι", "トロンボーン"]),
        ("Bass Trombone", .brass, ["bass trombone", "bassposaune", "trombone basse", "trombone basso"]),
        ("Euphonium", .brass, ["euphonium", "baritone horn", "tenorhorn", "эуфониум"]),
        ("Tuba", .brass, ["tuba", "туба", "τούμπα", "チューバ"]),
        ("Timpani", .percussion, ["timpani", "pauken", "pauke", "timbales", "tympani", "tympány", "литавры", "ティンパニ"]),
        ("Percussion", .percussion, ["percussion", "schlagzeug", "schlagwerk", "percussioni", "percusión", "bicí", "ударные", "κρουστά", "打楽器"]),
        ("Drums", .percussion, ["drums", "drum set", "drum kit", "drumset", "batterie", "batteria", "batería", "ドラム"]),
        ("Glockenspiel", .percussion, ["glockenspiel", "glock", "campanelli", "колокольчики"]),
        ("Xylophone", .percussion, ["xylophone", "xylophon", "xilofono", "ксилофон"]),
        ("Vibraphone", .percussion, ["vibraphone", "vibraphon", "vibes", "вибрафон"]),
        ("Marimba", .percussion, ["marimba", "маримба"]),
        ("Piano", .keyboards, ["piano", "klavier", "pianoforte", "klavír", "фортепиано", "пианино", "πιάνο", "ピアノ", "钢琴"]),
        ("Organ", .keyboards, ["organ", "orgel", "orgue", "organo", "órgano", "varhany", "орган", "όργανο", "オルガン"]),
        ("Harpsichord", .keyboards, ["harpsichord", "cembalo", "clavecin", "clavicembalo", "клавесин", "チェンバロ"]),
        ("Celesta", .keyboards, ["celesta", "célesta", "челеста"]),
        ("Keyboard", .keyboards, ["keyboard", "keyboards", "keys", "synth", "synthesizer"]),
        ("Soprano", .voices, ["soprano", "sopran", "сопрано", "σοπράνο", "ソプラノ"]),
        ("Alto", .voices, ["alto", "alt", "contralto", "アルト"]),
        ("Tenor", .voices, ["tenor", "ténor", "tenore", "тенор", "τενόρος", "テノール"]),
        ("Baritone", .voices, ["baritone", "bariton", "baryton", "baritono", "баритон"]),
        ("Bass", .voices, ["bass", "basso", "basse", "bajo", "бас", "μπάσος", "バス"]),
        ("Voice", .voices, ["voice", "vocals", "vocal", "singstimme", "gesang", "voix", "voce", "voz", "zpěv", "голос", "φωνή", "ボーカル", "lead sheet"]),
        ("Guitar", .rhythm, ["guitar", "gitarre", "guitare", "chitarra", "guitarra", "kytara", "гитара", "κιθάρα", "ギター"]),
        ("Bass Guitar", .rhythm, ["bass guitar", "electric bass", "e-bass", "bassgitarre", "basse électrique", "бас-гитара", "ベース"]),
        ("Banjo", .rhythm, ["banjo", "банджо"]),
        ("Ukulele", .rhythm, ["ukulele", "укулеле", "ウクレレ"]),
        ("Mandolin", .rhythm, ["mandolin", "mandoline", "mandolino", "мандолина"]),
        ("Accordion", .keyboards, ["accordion", "akkordeon", "accordéon", "fisarmonica", "akordeon", "аккордеон", "баян", "アコーディオン"]),
    ]

    private static let vocabulary: [String: Instrument] = {
        var map: [String: Instrument] = [:]
        for (name, section, names) in table {
            for spelling in names + [name] where map[PartName.fold(spelling)] == nil {
                map[PartName.fold(spelling)] = Instrument(name: name, section: section)
            }
        }
        return map
    }()

    private static let sectionNames: [String: Section] = {
        let names: [(Section, [String])] = [
            (.strings, ["strings", "string section", "streicher", "cordes", "archi", "cuerdas", "smyčce", "струнные", "弦楽器"]),
            (.woodwinds, ["woodwinds", "woodwind", "winds", "holzbläser", "bois", "legni", "maderas", "dřeva", "деревянные духовые", "木管"]),
            (.brass, ["brass", "blechbläser", "blech", "cuivres", "ottoni", "metales", "žestě", "медные духовые", "金管"]),
            (.percussion, ["percussion section", "drums and percussion"]),
            (.keyboards, ["keyboards section"]),
            (.voices, ["choir", "chorus", "chor", "chœur", "coro", "sbor", "хор", "χορωδία", "合唱", "vocals section"]),
            (.rhythm, ["rhythm", "rhythm section", "rhythmusgruppe", "rhythmus"]),
        ]
        var map: [String: Section] = [:]
        for (section, spellings) in names { for spelling in spellings { map[PartName.fold(spelling)] = section } }
        return map
    }()
}
