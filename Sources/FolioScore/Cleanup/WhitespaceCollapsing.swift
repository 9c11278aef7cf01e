/// `text` trimmed, every run of white space inside it one space: how metadata values are
/// compared and written back by adopt, from-names and lint.
///
/// ```swift
/// collapsingWhitespace("  Impromptu in  Ges-dur ")   // "Impromptu in Ges-dur"
/// ```
func collapsingWhitespace<S: StringProtocol>(_ text: S) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
}
