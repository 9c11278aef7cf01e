import FolioPDF
import Foundation

/// Finds the library a file belongs to: the nearest folder above it (its own included) that
/// holds a catalog (`.folio/library.sqlite`), when the file is catalogued there. Catalogs are
/// opened once per library, so a batch over many files of one library opens one. Nothing is
/// created: a file outside any library is edited as a plain file.
///
/// ```swift
/// var locator = CatalogLocator()
/// if let (catalog, relative) = locator.catalog(for: "/scores/Dvořák/Rusalka.pdf") {
///     print(catalog.folder, relative)   // "/scores" "Dvořák/Rusalka.pdf"
/// }
/// ```
public struct CatalogLocator {
    private var opened: [String: LibraryCatalog] = [:]

    public init() {}

    /// The catalog of the library `file` lies in and its path there; nil when no folder above
    /// holds a catalog, or the file is not catalogued in it.
    public mutating func catalog(for file: String) -> (LibraryCatalog, String)? {
        guard let real = LibraryPaths.realPath(file), let catalog = library(containing: PathName.parent(of: real)),
              let relative = catalog.files.relative(real), (try? catalog.knownFile(path: relative)) != nil else { return nil }
        return (catalog, relative)
    }

    /// The catalog of the library `folder` lies in (the nearest folder above with a
    /// catalog, the folder itself included), or nil: where new files made there (a split's
    /// pieces, a merge) are catalogued.
    public mutating func library(containing folder: String) -> LibraryCatalog? {
        guard var folder = LibraryPaths.realPath(folder.isEmpty ? "." : folder) else { return nil }
        while true {
            if LibraryCatalog.isLibrary(folder) { return open(folder) }
            let parent = PathName.parent(of: folder)
            guard parent != folder, folder != "/" else { return nil }
            folder = parent
        }
    }

    /// Saves `edit`'s change to `file`: through its library's edit path when it is catalogued
    /// and no `output` is given (recorded as `change` by `author`, the catalog row updated),
    /// else in place under its lock or to `output`.
    ///
    /// ```swift
    /// var locator = CatalogLocator()
    /// try locator.update(file: "Rusalka.pdf", change: "folio pages rotate") { document in try document.rotatePages([0], by: 90) }
    /// ```
    public mutating func update<T>(file: String, output: String? = nil, password: String? = nil, save: SaveOptions = SaveOptions(),
                                   change: String, author: String? = nil, _ edit: (PDFDocument) throws -> T) throws -> T {
        if output == nil, let (catalog, relative) = catalog(for: file) {
            return try catalog.edit(score: relative, expected: nil, change: change, author: author, password: password, save: save, edit).value
        }
        return try PDFSaver.update(path: file, output: output, password: password, save: save, edit: edit)
    }

    private mutating func open(_ folder: String) -> LibraryCatalog? {
        if let known = opened[folder] { return known }
        guard let catalog = try? LibraryCatalog(folder: folder, create: false) else { return nil }
        opened[folder] = catalog
        return catalog
    }
}
