/// RC4, needed for the PDF standard security handler revisions 2–4 (swift-crypto
/// rightly does not ship it). Symmetric: the same call encrypts and decrypts.
struct RC4 {
    private var state: [UInt8]
    private var i: UInt8 = 0
    private var j: UInt8 = 0

    init(key: [UInt8]) {
        state = Array(0...255)
        guard !key.isEmpty else { return }
        var j: UInt8 = 0
        for i in 0..<256 {
            j = j &+ state[i] &+ key[i % key.count]
            state.swapAt(i, Int(j))
        }
    }

    mutating func process(_ data: [UInt8]) -> [UInt8] {
        var output = data
        for index in output.indices {
            i = i &+ 1
            j = j &+ state[Int(i)]
            state.swapAt(Int(i), Int(j))
            output[index] ^= state[Int(state[Int(i)] &+ state[Int(j)])]
        }
        return output
    }

    static func process(_ data: [UInt8], key: [UInt8]) -> [UInt8] {
        var cipher = RC4(key: key)
        return cipher.process(data)
    }
}
