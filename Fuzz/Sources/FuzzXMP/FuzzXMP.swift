import FolioPDF
import FuzzSupport

/// The XMP packet reader, then an edit of what it read written back and read again.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    guard var packet = try? XMPPacket(bytes: Array(UnsafeBufferPointer(start: data, count: count))) else { return 0 }
    _ = packet.text(XMPPacket.dc, "title")
    _ = packet.array(XMPPacket.dc, "subject")
    _ = packet.structures("http://ns.apple.com/Preview/1.0/", "bookmarks")
    let title = XMPPacket.Name(namespace: XMPPacket.dc, local: "title")
    guard (try? packet.update([XMPPacket.Edit(title, prefix: "dc", .languageAlternative("Fuzz"))])) != nil else { return 0 }
    _ = try? XMPPacket(bytes: packet.serialized())
    return 0
}

@_cdecl("FuzzXMP_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
