import FolioPDF

/// Lines of text flowed down pages between margins: each line takes its height from the top,
/// a page ends when the next line would cross the bottom margin.
struct TextPageFlow {
    private(set) var pdf = PDFNewDocument()
    let width: Double
    let height: Double
    let margin: Double
    private var runs: [PDFTextRun] = []
    private var top: Double
    private var pageHasLines = false

    init(paper: ScoreMake.Paper, margin: Double) {
        (width, height) = paper.size
        self.margin = margin
        top = paper.size.height - margin
    }

    /// The width lines may take.
    var lineWidth: Double { width - 2 * margin }
    /// The left margin, where lines start.
    var left: Double { margin }
    /// Pages finished so far.
    var pageCount: Int { pdf.pageCount }

    /// Takes a line `height` points high, first starting a page when `height` (plus `keep`,
    /// lines that must stay with it) does not fit; returns the top of the line.
    mutating func take(_ height: Double, keep: Double = 0) throws -> Double {
        if pageHasLines, top - height - keep < margin - 0.01 { try newPage() }
        pageHasLines = true
        defer { top -= height }
        return top
    }

    /// Leaves `height` points empty, unless at the top of a page.
    mutating func skip(_ height: Double) {
        if pageHasLines { top -= height }
    }

    mutating func add(_ run: PDFTextRun) { runs.append(run) }

    /// Ends the page (an empty one too, for a form feed).
    mutating func newPage() throws {
        try pdf.addTextPage(width: width, height: height, runs: runs)
        runs = []
        top = height - margin
        pageHasLines = false
    }

    /// Ends the last page if it holds anything, or if there is no page yet.
    mutating func finishPage() throws {
        if pageHasLines || !runs.isEmpty || pdf.pageCount == 0 { try newPage() }
    }
}
