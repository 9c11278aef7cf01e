import Foundation

/// Host names in any script, as browsers send them: each label that is not ASCII becomes
/// `xn--` and its Punycode (RFC 3492), after compatibility normalization and lower-casing
/// (IDNA's mapping). A musician may call the server `ноты.local`; the browser asks for
/// `xn--m1acm0b.local`, and that is the name a certificate and the allowed hosts must carry.
///
/// ```swift
/// HostName.ascii("Ноты.local")   // "xn--m1acm0b.local"
/// HostName.ascii("studio.local") // "studio.local"
/// ```
public enum HostName {
    /// The ASCII form of `name`; nil when a label is empty (past its first), longer than 63
    /// characters once encoded, or the whole longer than 253.
    public static func ascii(_ name: String) -> String? {
        let mapped = name.precomposedStringWithCompatibilityMapping.lowercased()
        var labels: [String] = []
        for label in mapped.split(separator: ".", omittingEmptySubsequences: false) {
            let scalars = Array(label.unicodeScalars)
            let encoded: String
            if scalars.allSatisfy(\.isASCII) {
                encoded = String(label)
            } else {
                guard scalars.count <= 63, let punycode = encode(scalars) else { return nil }
                encoded = "xn--" + punycode
            }
            guard encoded.utf8.count <= 63 else { return nil }
            labels.append(encoded)
        }
        // A final dot (an absolute name) is allowed; other empty labels are not.
        if labels.count > 1, labels.last == "" { labels.removeLast() }
        guard !labels.contains(""), !labels.isEmpty else { return nil }
        let joined = labels.joined(separator: ".")
        return joined.utf8.count <= 253 ? joined : nil
    }

    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700

    /// RFC 3492's encoder for one label (at most 63 scalars: no sum below can overflow).
    static func encode(_ input: [Unicode.Scalar]) -> String? {
        var output = input.filter(\.isASCII).map(Character.init)
        let basic = output.count
        var handled = basic
        if basic > 0 { output.append("-") }
        var code = 128, delta = 0, bias = 72
        while handled < input.count {
            guard let next = input.map({ Int($0.value) }).filter({ $0 >= code }).min() else { return nil }
            delta += (next - code) * (handled + 1)
            code = next
            for scalar in input {
                let value = Int(scalar.value)
                if value < code { delta += 1 }
                guard value == code else { continue }
                var q = delta, k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, points: handled + 1, first: handled == basic)
                delta = 0
                handled += 1
            }
            delta += 1
            code += 1
        }
        return String(output)
    }

    private static func digit(_ value: Int) -> Character {
        Character(Unicode.Scalar(UInt8(value < 26 ? 97 + value : 22 + value)))
    }

    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
