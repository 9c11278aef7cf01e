import Foundation

/// A time in a recording as musicians write it — seconds (`62.5`), minutes and seconds
/// (`1:02.5`) or hours too (`1:01:02`) — and back.
///
/// ```swift
/// try TrackTime.seconds(parsing: "1:02.5")   // 62.5
/// TrackTime.text(62.5)                       // "1:02.5"
/// ```
public enum TrackTime {
    /// The seconds `text` names; throws ``ScoreError`` `.invalidValue` naming the valid forms.
    public static func seconds(parsing text: String) throws -> Double {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        let invalid = ScoreError(.invalidValue, "\(text) is not a time (valid: seconds like 62.5, or minutes:seconds like 1:02.5)")
        guard (1...3).contains(parts.count), let last = Double(parts[parts.count - 1]), last.isFinite, last >= 0 else { throw invalid }
        if parts.count > 1, last >= 60 { throw invalid }
        var seconds = last
        for (index, part) in parts.dropLast().reversed().enumerated() {
            guard let whole = Int(part), whole >= 0, whole < 100_000, index == 1 || parts.count == 2 || whole < 60 else { throw invalid }
            seconds += Double(whole) * (index == 0 ? 60 : 3600)
        }
        return seconds
    }

    /// `seconds` as minutes:seconds, tenths shown when there are any.
    public static func text(_ seconds: Double) -> String {
        // A file may say anything: what is no time of a recording (past a year, negative, NaN) is shown as it is.
        guard seconds.isFinite, (0...31_622_400).contains(seconds) else { return "\(seconds) s" }
        let tenths = Int((seconds * 10).rounded())
        let minutes = tenths / 600, rest = Double(tenths % 600) / 10
        let secondsText = rest == rest.rounded() ? String(format: "%02d", Int(rest)) : String(format: "%04.1f", rest)
        return "\(minutes):\(secondsText)"
    }
}
