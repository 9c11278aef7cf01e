// The failure vocabulary every layer shares (FolioFailure), handed on with the library's own
// `LibraryError`, so a shell that throws or maps one needs no other import.
@_exported import FolioFailure
