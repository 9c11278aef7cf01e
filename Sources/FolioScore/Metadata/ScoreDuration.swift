/// Durations in whole seconds, as forScore's `duration:N` keyword stores them.
///
/// ```swift
/// try ScoreDuration.parse("1:12")   // 72
/// ScoreDuration.format(72)          // "1:12"
/// ```
public enum ScoreDuration {
    /// Parses "72", "1:12" or "1:02:03" into seconds.
    public static func parse(_ text: String) throws -> Int {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let numbers = Optional(parts.compactMap { Int($0) }),
            numbers.count == parts.count, numbers.allSatisfy({ $0 >= 0 }),
            parts.dropFirst().allSatisfy({ $0.count == 2 }), numbers.dropFirst().allSatisfy({ $0 < 60 })
        else {
            throw ScoreError(.invalidDuration,
                             "duration '\(text)' is invalid (valid: seconds such as 72, or m:ss such as 1:12, or h:mm:ss)")
        }
        let seconds = numbers.reduce(0) { $0 * 60 + $1 }
        guard seconds <= 366 * 24 * 3600 else {
            throw ScoreError(.outOfRange, "duration \(seconds) s is out of range (valid: 0 to 31,622,400 s)")
        }
        return seconds
    }

    /// "m:ss", or "h:mm:ss" from an hour on.
    public static func format(_ seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds / 60 % 60, rest = seconds % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(seconds / 60):\(two(rest))"
    }
}
