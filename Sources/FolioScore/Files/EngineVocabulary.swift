import FolioPDF

// The engine's value types that FolioScore's operations take and return, named here so that a
// shell names them through FolioScore and imports the engine only for commands about PDF
// internals. These are aliases, not re-exports: a file that imports FolioScore alone sees these
// names and FolioScore's operations, never the engine's parser, writers or saver. Documents are
// opened and saved through ``ScoreFile``.

// Saving: how a save is made and what it reports.

/// How a save writes the file: an incremental update, a journal, a full rewrite.
public typealias SaveMethod = FolioPDF.SaveMethod
/// How to save: the method and its checks (see the engine's `SaveOptions`).
///
/// ```swift
/// try ScoreFile("Ηχοι.pdf").update(saving: SaveOptions(method: .journal)) { _ in }
/// ```
public typealias SaveOptions = FolioPDF.SaveOptions
/// The stage a save reached when it failed.
public typealias SaveStage = FolioPDF.SaveStage
/// What a save did: its method, bytes written and stages.
public typealias SaveReport = FolioPDF.SaveReport

// The table of contents: entries, where they lead, where they go.

/// One entry of a table of contents.
public typealias PDFOutlineItem = FolioPDF.PDFOutlineItem
/// Where a table-of-contents entry leads.
public typealias PDFOutlineTarget = FolioPDF.PDFOutlineTarget
/// The path of an entry in a table of contents (its indices from the top).
public typealias PDFOutlinePath = FolioPDF.PDFOutlinePath
/// Where an entry is moved or added in a table of contents.
public typealias PDFOutlinePosition = FolioPDF.PDFOutlinePosition
/// Edits a table of contents entry by entry.
public typealias PDFOutlineEditor = FolioPDF.PDFOutlineEditor

// Annotations: the kinds a musician adds, text alignment, points in display coordinates.

/// The kinds of annotation Folio adds and lists.
public typealias PDFAnnotationKind = FolioPDF.PDFAnnotationKind
/// How a text box's lines are aligned.
public typealias PDFTextAlignment = FolioPDF.PDFTextAlignment
/// A point in a page's display coordinates.
public typealias PDFPoint = FolioPDF.PDFPoint

// Reading: the limits a document is read under.

/// The limits a score is read under — the server's time budget and sizes (see
/// ``ScoreFile/open(limits:)``).
public typealias ReadLimits = FolioPDF.PDFReadOptions
