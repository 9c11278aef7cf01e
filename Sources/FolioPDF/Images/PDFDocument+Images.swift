extension PDFDocument {
    /// Adds `image` as an image XObject (with a soft mask when it has transparency) and
    /// returns its reference, for ``PDFDrawing/image(_:in:)``.
    ///
    /// ```swift
    /// let image = try document.addImage(try PNGImage(bytes: png))
    /// var art = PDFDrawing(); art.image(image, in: PDFRect(x1: 0, y1: 0, x2: 1, y2: 1))
    /// ```
    public func addImage(_ image: PNGImage) throws -> PDFReference {
        var dictionary: PDFDictionary = [
            "Type": .name("XObject"), "Subtype": .name("Image"),
            "Width": .integer(image.width), "Height": .integer(image.height),
            "ColorSpace": .name(image.components == 3 ? "DeviceRGB" : "DeviceGray"),
            "BitsPerComponent": .integer(8), "Filter": .name("FlateDecode"),
        ]
        if let alpha = image.alpha {
            let mask = try FlateFilter.encode(alpha)
            let maskDictionary: PDFDictionary = [
                "Type": .name("XObject"), "Subtype": .name("Image"),
                "Width": .integer(image.width), "Height": .integer(image.height),
                "ColorSpace": .name("DeviceGray"), "BitsPerComponent": .integer(8),
                "Filter": .name("FlateDecode"), "Length": .integer(mask.count),
            ]
            dictionary["SMask"] = .reference(add(.stream(PDFStream(dictionary: maskDictionary, encodedData: mask))))
        }
        let data = try FlateFilter.encode(image.pixels)
        dictionary["Length"] = .integer(data.count)
        return add(.stream(PDFStream(dictionary: dictionary, encodedData: data)))
    }
}
