/// The findings of a structural check.
///
/// ```swift
/// let report = try PDFDocument(path: "Smetana - Vltava.pdf").checkStructure()
/// if !report.isClean { print(report.errors, report.warnings) }
/// ```
public struct StructureReport: Sendable {
    public var errors: [String] = []
    public var warnings: [PDFWarning] = []
    public var objectCount = 0
    public var streamCount = 0

    public var isClean: Bool { errors.isEmpty && warnings.isEmpty }
}

extension PDFDocument {
    /// A structural check in the spirit of `qpdf --check`: every cross-reference entry
    /// leads to its object, every object parses, every stream's length is right and its
    /// filters decode, and the page tree is sound. Loads the whole file, unlike reads.
    public func checkStructure() -> StructureReport {
        var report = StructureReport()
        if xref.isReconstructed {
            log.add("the cross-reference table was damaged and has been rebuilt")
        }
        for number in xref.entries.keys.sorted() {
            guard let entry = xref.entries[number] else { continue }
            if case .free = entry { continue }
            let reference = PDFReference(number: number)
            let object = self.object(reference)
            report.objectCount += 1
            guard case .stream(let stream) = object else { continue }
            report.streamCount += 1
            do {
                _ = try decodedData(of: stream)
            } catch let error as PDFError {
                log.add("stream cannot be decoded: \(error.message)", object: reference)
            } catch {
                log.add("stream cannot be decoded: \(error)", object: reference)
            }
        }
        if let root = catalog {
            if dictionary(root["Pages"]) == nil {
                report.errors.append("the catalog has no page tree (/Pages)")
            } else {
                let walked = reachablePageCount
                if let declared = declaredPageCount, declared != walked {
                    log.add("page tree /Count is \(declared) but \(walked) pages are reachable")
                }
            }
        } else {
            report.errors.append("/Root is not a dictionary")
        }
        report.warnings = warnings
        if warningCount > warnings.count {
            report.warnings.append(PDFWarning("\(warningCount - warnings.count) more warnings not shown"))
        }
        return report
    }
}
