// The failure vocabulary every layer shares (FolioFailure: `Failure`, `FailureKind`,
// `CodedFailure`), handed on so that a shell speaking only to the score layer maps failures
// without importing the engine.
@_exported import FolioFailure
