// The engine's value types that FolioScore's operations take and return, re-exported so
// that a shell names them through FolioScore and imports the engine only for commands about
// PDF internals. Documents are opened and saved through ``ScoreFile``; the engine's active
// parts (the parser, the writers, the saver) are not part of this vocabulary.

// Saving: how a save is made and what it reports.
@_exported import enum FolioPDF.SaveMethod
@_exported import struct FolioPDF.SaveOptions
@_exported import enum FolioPDF.SaveStage
@_exported import struct FolioPDF.SaveReport

// The table of contents: entries, where they lead, where they go.
@_exported import struct FolioPDF.PDFOutlineItem
@_exported import enum FolioPDF.PDFOutlineTarget
@_exported import struct FolioPDF.PDFOutlinePath
@_exported import enum FolioPDF.PDFOutlinePosition
@_exported import struct FolioPDF.PDFOutlineEditor

// Annotations: the kinds a musician adds, text alignment, points in display coordinates.
@_exported import enum FolioPDF.PDFAnnotationKind
@_exported import enum FolioPDF.PDFTextAlignment
@_exported import struct FolioPDF.PDFPoint
