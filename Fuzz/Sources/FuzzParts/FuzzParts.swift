import FolioScore
import Foundation
import FuzzSupport

/// File names read as pieces and parts (separators, brackets, desks, keys, every script) and
/// labels set by hand; each label found is matched against a few players.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: min(count, 4096)), as: UTF8.self)
    let name = PartName(file: text)
    _ = name.songKey
    let players = [PartLabel("Trumpet in Bb"), PartLabel("Violin II"), PartLabel(userLabel: text)].compactMap { $0 }
    for label in [name.label, PartLabel(text), PartLabel(userLabel: text)].compactMap({ $0 }) {
        for player in players { _ = label.serves(player) }
    }
    return 0
}

@_cdecl("FuzzParts_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
