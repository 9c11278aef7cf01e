extension PDFDocument {
    /// Adds `image` as an image XObject (with a soft mask when it has transparency) and
    /// returns its reference, for ``PDFDrawing/image(_:in:)``.
    ///
    /// ```swift
    /// let image = try document.addImage(try PNGImage(bytes: png))
    /// var art = PDFDrawing(); art.image(image, in: PDFRect(x1: 0, y1: 0, x2: 1, y2: 1))
    /// ```
    public func addImage(_ image: PNGImage) throws -> PDFReference {
        let prepared = try PDFImage(decoded: image)
        var stream = prepared.stream
        if let mask = prepared.mask { stream.dictionary["SMask"] = .reference(add(.stream(mask))) }
        return add(.stream(stream))
    }
}
