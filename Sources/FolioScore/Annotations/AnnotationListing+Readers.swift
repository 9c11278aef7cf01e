import FolioPDF
import Foundation

extension AnnotationListing {
    /// A page with more annotations than this is read in parts of this many, side by side:
    /// one page of tens of thousands of links (LilyPond's point-and-click, a generated index)
    /// is then read on every reader, not on one.
    public static let partSize = 2048

    /// Every page's annotations of `score`, read on `readers` threads at once, each with its
    /// own open copy of the file (an open document is read by one thread at a time).
    ///
    /// A reader takes the next page no one has taken, lists it and hands the listing to
    /// `transform` on its own thread (say, to write it out as JSON); `body` then gets the
    /// results in page order on the calling thread. Readers stay at most `2 × readers` pages
    /// ahead of `body`, so memory holds a few pages, not the file. A file of thousands of
    /// links per page (LilyPond's point-and-click) is listed in about half the time on two
    /// cores. A page of more than ``partSize`` annotations is read in parts by all readers;
    /// once the page is whole its annotations are named (`PDFDocument.identifyByName`)
    /// and each part is handed to `transform`, side by side, so `body` gets such a page in
    /// several results, in order. With one reader the pages are read here,
    /// as ``forEachPage(_:page:popups:_:)`` reads them. The first error (the file cannot be
    /// opened, a page cannot be listed, `transform` or `body` throws) stops the readers and
    /// is thrown.
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
        let handOver = PageHandOver<Listed<T>>(window: 2 * readers)
        for _ in 0..<readers {
            let thread = Thread {
                handOver.read {
                    let document = try score.open()
                    return (document.pages(), document)
                } plan: { document, pages in
                    ListingUnit.plan(pages.map { document.annotationEntryCount(of: $0) }, partSize: partSize)
                } list: { document, page, unit in
                    guard let positions = unit.positions else {
                        return .page(try transform(unit.page, listing(page, unit.page, of: document, popups: popups)))
                    }
                    return .part(listing(page, unit.page, of: document, popups: popups, positions: positions))
                }
            }
            thread.start()
        }
        var parts: [[Shown]] = []
        try handOver.consume(readers: readers) { unit, listed in
            switch listed {
            case .page(let result):
                try body(unit.page, result)
            case .part(let shown):
                parts.append(shown)
                guard unit.endsPage else { return }
                identifyByName(parts: &parts)
                var whole: [[Shown]] = []
                swap(&whole, &parts)
                for result in try transformInParts(consume whole, page: unit.page, workers: readers, transform) { try body(unit.page, result) }
            }
        }
    }

    /// `transform` of each of `parts`, on up to `workers` threads at once; the results in order.
    /// Each part is let go by the thread that transformed it, so a page of tens of thousands
    /// of annotations is freed side by side too, not on the caller's thread.
    static func transformInParts<T: Sendable>(_ parts: consuming [[Shown]], page: Int, workers: Int,
                                              _ transform: @escaping @Sendable (Int, [Shown]) throws -> T) throws -> [T] {
        let count = parts.count
        let results = PartResults<T>(parts: consume parts)
        DispatchQueue.concurrentPerform(iterations: min(max(1, workers), count)) { _ in
            while let (position, part) = results.take() {
                results.put(position, Result { try transform(page, part) })
            }
        }
        return try results.results()
    }
}

/// Parts taken one by one by several threads, and their results (``AnnotationListing/transformInParts(_:page:workers:_:)``).
final class PartResults<T: Sendable>: @unchecked Sendable {  // `next`, `parts` and `slots` are guarded by `lock`
    private let lock = NSLock()
    private var next = 0
    private var parts: [[AnnotationListing.Shown]]
    private var slots: [Result<T, any Error>?]

    init(parts: consuming [[AnnotationListing.Shown]]) {
        slots = Array(repeating: nil, count: parts.count)
        self.parts = parts
    }

    /// The next part no thread has taken, handed over (the taker holds it alone), or nil.
    func take() -> (Int, [AnnotationListing.Shown])? {
        lock.withLock {
            guard next < slots.count else { return nil }
            defer { next += 1 }
            var part: [AnnotationListing.Shown] = []
            swap(&part, &parts[next])
            return (next, part)
        }
    }

    func put(_ part: Int, _ result: Result<T, any Error>) {
        lock.withLock { slots[part] = result }
    }

    /// Every part's result in order; the first failure is thrown.
    func results() throws -> [T] {
        try lock.withLock { slots }.map { try ($0 ?? .failure(ScoreError(.unreadable, "a part of a page was not listed"))).get() }
    }
}

/// What a reader hands over for one ``ListingUnit``: a whole page transformed, or one part
/// of a large page listed (transformed once the page is whole and named).
enum Listed<T: Sendable>: Sendable {
    case page(T)
    case part([AnnotationListing.Shown])
}

/// One piece of work for the readers: a page, or a range of positions in a large page's
/// `/Annots`.
struct ListingUnit: Sendable, Equatable {
    /// The page, 0-based.
    var page: Int
    /// The positions in its `/Annots`, or nil for the whole page.
    var positions: Range<Int>?
    /// Whether this is the page's last unit.
    var endsPage: Bool

    /// The units for pages of `counts` annotations: one per page, or parts of `partSize`
    /// for pages of more.
    static func plan(_ counts: [Int], partSize: Int) -> [ListingUnit] {
        var units: [ListingUnit] = []
        for (page, count) in counts.enumerated() {
            guard count > partSize else {
                units.append(ListingUnit(page: page, positions: nil, endsPage: true))
                continue
            }
            for start in stride(from: 0, to: count, by: partSize) {
                let end = min(start + partSize, count)
                units.append(ListingUnit(page: page, positions: start..<end, endsPage: end == count))
            }
        }
        return units
    }
}

/// Units of pages dealt out to reader threads and handed back in order (``AnnotationListing/forEachPage(of:readers:popups:transform:_:)``).
final class PageHandOver<T: Sendable>: @unchecked Sendable {  // every mutable property is guarded by `condition`
    private let condition = NSCondition()
    private let window: Int
    /// The units, as the first reader to open the file planned them, and its page count.
    private var units: [ListingUnit]?
    private var pageCount: Int?
    private var planning = false
    /// The next unit a reader takes; results wait in `done` until handed over.
    private var taken = 0
    private var handed = 0
    private var done: [Int: T] = [:]
    private var failure: (any Error)?
    private var finished = 0

    init(window: Int) {
        self.window = max(1, window)
    }

    /// One reader: opens its copy of the file (the first to open it plans the units), then
    /// lists units until none is left.
    func read(open: () throws -> ([PDFPage], PDFDocument), plan: (PDFDocument, [PDFPage]) -> [ListingUnit],
              list: (PDFDocument, PDFPage, ListingUnit) throws -> T) {
        defer {
            condition.lock()
            finished += 1
            condition.broadcast()
            condition.unlock()
        }
        do {
            let (pages, document) = try open()
            condition.lock()
            if units == nil, !planning {
                planning = true
                condition.unlock()
                let planned = plan(document, pages)
                condition.lock()
                units = planned
                pageCount = pages.count
                condition.broadcast()
            }
            while units == nil, failure == nil { condition.wait() }
            let units = self.units ?? []
            let agrees = pageCount == pages.count
            condition.unlock()
            guard agrees else { throw ScoreError(.unreadable, "the file changed while its pages were being read") }
            while true {
                condition.lock()
                while failure == nil, taken < units.count, taken >= handed + window { condition.wait() }
                guard failure == nil, taken < units.count else {
                    condition.unlock()
                    return
                }
                let index = taken
                taken += 1
                condition.unlock()
                let unit = units[index]
                let result = try list(document, pages[unit.page], unit)
                condition.lock()
                done[index] = result
                condition.broadcast()
                condition.unlock()
            }
        } catch {
            fail(error)
        }
    }

    /// Hands each unit's result to `body` in order on the calling thread, then waits for
    /// the `readers` to finish; throws the first failure.
    func consume(readers: Int, _ body: (ListingUnit, T) throws -> Void) throws {
        defer {
            condition.lock()
            while finished < readers { condition.wait() }
            condition.unlock()
        }
        while true {
            condition.lock()
            // Until the next unit is listed, or cannot be: a failure, every reader gone, the end.
            while failure == nil, done[handed] == nil, finished < readers, units.map({ handed < $0.count }) ?? true {
                condition.wait()
            }
            if let failure {
                condition.unlock()
                throw failure
            }
            guard let units, handed < units.count, let result = done.removeValue(forKey: handed) else {
                condition.unlock()
                return
            }
            let unit = units[handed]
            handed += 1
            condition.broadcast()  // room in the window
            condition.unlock()
            do { try body(unit, result) } catch {
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
