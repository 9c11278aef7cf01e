import FolioPDF

/// MobileSheets' setlist import file (`.mss`): XML with a `Setlists` root and per setlist a
/// `Name` and its `Song`s, each a `Title`, the `FileName` MobileSheets finds it by and a
/// `FileType` (1, a PDF). A bookmark becomes the song the CSV export made of its pages
/// (its title over its file); a placeholder has no file, so MobileSheets could not
/// match it: it is left out and reported.
///
/// ```swift
/// let export = MobileSheetsSetlists(setlists: [try catalog.setlist(named: "Friday")])
/// try SafeFile.write(to: "setlists.mss", bytes: export.xml())
/// export.omitted   // [("Friday", "Encore (to be decided)")]
/// ```
public struct MobileSheetsSetlists: Sendable {
    /// The setlists written.
    public var setlists: [Setlist]

    public init(setlists: [Setlist]) {
        self.setlists = setlists
    }

    /// Entries with no file (setlist, title), which the XML leaves out.
    public var omitted: [(setlist: String, title: String)] {
        setlists.flatMap { setlist in
            setlist.entries.filter { $0.path == nil }.map { (setlist.title, $0.title) }
        }
    }

    /// The `.mss` XML.
    public func xml() -> [UInt8] {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<Setlists>\n"
        for setlist in setlists {
            out += "  <Setlist><Name>\(XMLText.escape(setlist.title, quote: true))</Name>\n"
            for entry in setlist.entries {
                guard let path = entry.path else { continue }
                let fileName = PathName.lastComponent(of: path)
                out += "    <Song><Title>\(XMLText.escape(entry.title, quote: true))</Title>"
                    + "<FileName>\(XMLText.escape(fileName, quote: true))</FileName><FileType>1</FileType></Song>\n"
            }
            out += "  </Setlist>\n"
        }
        out += "</Setlists>\n"
        return Array(out.utf8)
    }
}
