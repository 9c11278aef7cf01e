extension PDFDocument {
    /// Adds `image` as an image XObject (with a soft mask when it has transparency) and
    /// returns its reference, for ``PDFDrawing/image(_:in:)``.
    ///
    /// ```swift
    /// let image = try document.addImage(try PNGImage(bytes: png))
    /// var art = PDFDrawing(); art.image(image, in: PDFRect(x1: 0, y1: 0, x2: 1, y2: 1))
    /// ```
    public func addImage(_ image: PNGImage) throws -> PDFReference {
        addImage(try PDFImage(decoded: image))
    }

    /// Adds a prepared JPEG or PNG image (its bytes kept, see ``PDFImage``) as an image
    /// XObject, its alpha as a soft mask, and returns its reference.
    ///
    /// ```swift
    /// let image = document.addImage(try PDFImage(bytes: Array(try Data(contentsOf: stampURL))))
    /// ```
    public func addImage(_ prepared: PDFImage) -> PDFReference {
        var stream = prepared.stream
        if let mask = prepared.mask { stream.dictionary["SMask"] = .reference(add(.stream(mask))) }
        return add(.stream(stream))
    }
}
