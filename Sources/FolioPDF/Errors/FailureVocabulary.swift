// The failure vocabulary every layer shares lives below the engine, in FolioFailure; every
// user of the engine speaks it.
@_exported import FolioFailure
