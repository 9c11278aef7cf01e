/// Text made safe inside XML (and HTML) elements and quoted attribute values.
///
/// ```swift
/// XMLText.escape("Bach & <Sons>", quote: false)   // "Bach &amp; &lt;Sons&gt;"
/// XMLText.escape("\"Air\" 'on G'", quote: true)    // "&quot;Air&quot; &#39;on G&#39;"
/// ```
public enum XMLText {
    /// `quote` escapes what an attribute value needs besides: both quotes, and tabs and
    /// line ends as character references so they survive attribute normalisation.
    /// Control characters XML 1.0 forbids are dropped.
    public static func escape(_ text: String, quote: Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quote: result += "&quot;"
            case "'" where quote: result += "&#39;"
            case "\n" where quote: result += "&#xA;"
            case "\r": result += "&#xD;"
            case "\t" where quote: result += "&#x9;"
            default:
                if scalar.value < 0x20, scalar != "\n", scalar != "\t" { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
