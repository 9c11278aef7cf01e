import FolioPDF
import Foundation

extension AnnotationListing {
    /// Every page's annotations of `score`, read on `readers` threads at once, each with its
    /// own open copy of the file (an open document is read by one thread at a time).
    ///
    /// A reader takes the next page no one has taken, lists it and hands the listing to
    /// `transform` on its own thread (say, to write it out as JSON); `body` then gets the
    /// results in page order on the calling thread. Readers stay at most `2 × readers` pages
    /// ahead of `body`, so memory holds a few pages, not the file. A file of thousands of
    /// links per page (LilyPond's point-and-click) is listed in about half the time on two
    /// cores. With one reader the pages are read here, as ``forEachPage(_:page:popups:_:)``
    /// reads them. The first error (the file cannot be opened, a page cannot be listed,
    /// `transform` or `body` throws) stops the readers and is thrown.
    ///
    /// ```swift
    /// try AnnotationListing.forEachPage(of: ScoreFile("Ноктюрн.pdf"), readers: 2) { _, shown in
    ///     shown.map(\.annotation.subtype).joined(separator: ", ")
    /// } _: { index, subtypes in
    ///     print("page \(index + 1): \(subtypes)")
    /// }
    /// ```
    public static func forEachPage<T: Sendable>(
        of score: ScoreFile, readers: Int, popups: Bool = true,
        transform: @escaping @Sendable (Int, [Shown]) throws -> T, _ body: (Int, T) throws -> Void
    ) throws {
        guard readers > 1 else {
            try forEachPage(try score.open(), popups: popups) { index, shown in try body(index, try transform(index, shown)) }
            return
        }
        let handOver = PageHandOver<T>(window: 2 * readers)
        for _ in 0..<readers {
            let thread = Thread {
                handOver.read {
                    let document = try score.open()
                    return (document.pages(), document)
                } list: { document, page, index in
                    try transform(index, listing(page, index, of: document, popups: popups))
                }
            }
            thread.start()
        }
        try handOver.consume(readers: readers, body)
    }
}

/// Pages dealt out to reader threads and handed back in order (``AnnotationListing/forEachPage(of:readers:popups:transform:_:)``).
final class PageHandOver<T: Sendable>: @unchecked Sendable {  // every mutable property is guarded by `condition`
    private let condition = NSCondition()
    private let window: Int
    /// The page count, as the first reader to open the file found it.
    private var pageCount: Int?
    /// The next page a reader takes; results wait in `done` until handed over.
    private var taken = 0
    private var handed = 0
    private var done: [Int: T] = [:]
    private var failure: (any Error)?
    private var finished = 0

    init(window: Int) {
        self.window = max(1, window)
    }

    /// One reader: opens its copy of the file, then lists pages until none is left.
    func read(open: () throws -> ([PDFPage], PDFDocument), list: (PDFDocument, PDFPage, Int) throws -> T) {
        defer {
            condition.lock()
            finished += 1
            condition.broadcast()
            condition.unlock()
        }
        do {
            let (pages, document) = try open()
            condition.lock()
            if pageCount == nil { pageCount = pages.count }
            let agrees = pageCount == pages.count
            condition.unlock()
            guard agrees else { throw ScoreError(.unreadable, "the file changed while its pages were being read") }
            while true {
                condition.lock()
                while failure == nil, taken < pages.count, taken >= handed + window { condition.wait() }
                guard failure == nil, taken < pages.count else {
                    condition.unlock()
                    return
                }
                let index = taken
                taken += 1
                condition.unlock()
                let result = try list(document, pages[index], index)
                condition.lock()
                done[index] = result
                condition.broadcast()
                condition.unlock()
            }
        } catch {
            fail(error)
        }
    }

    /// Hands each page's result to `body` in order on the calling thread, then waits for
    /// the `readers` to finish; throws the first failure.
    func consume(readers: Int, _ body: (Int, T) throws -> Void) throws {
        defer {
            condition.lock()
            while finished < readers { condition.wait() }
            condition.unlock()
        }
        while true {
            condition.lock()
            // Until the next page is listed, or cannot be: a failure, every reader gone, the end.
            while failure == nil, done[handed] == nil, finished < readers, pageCount.map({ handed < $0 }) ?? true {
                condition.wait()
            }
            if let failure {
                condition.unlock()
                throw failure
            }
            guard let count = pageCount, handed < count, let result = done.removeValue(forKey: handed) else {
                condition.unlock()
                return
            }
            let index = handed
            handed += 1
            condition.broadcast()  // room in the window
            condition.unlock()
            do { try body(index, result) } catch {
                fail(error)
                throw error
            }
        }
    }

    private func fail(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }
}
