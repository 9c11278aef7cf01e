import Foundation

/// A date as PDF writes it (`D:YYYYMMDDHHmmSSOHH'mm'`), read from every partial and
/// malformed form producers use.
///
/// ```swift
/// let date = PDFDate(parsing: "D:20220403180542+02'00'")
/// date?.iso8601   // "2022-04-03T18:05:42+02:00"
/// ```
public struct PDFDate: Sendable, Equatable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Offset from UTC in minutes; nil when the date gives none.
    public var utcOffsetMinutes: Int?

    public init(year: Int, month: Int = 1, day: Int = 1, hour: Int = 0, minute: Int = 0, second: Int = 0,
                utcOffsetMinutes: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// The moment `date` in UTC (written with `Z`), as Folio stamps ModDate and xmp:ModifyDate.
    /// Computed from the Unix time: Calendar would load ICU, a few milliseconds per process.
    public init(_ date: Date) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        // Civil date from days since 1970-01-01 (proleptic Gregorian, eras of 400 years).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(year: year, month: month, day: day, hour: time / 3600, minute: time / 60 % 60, second: time % 60,
                  utcOffsetMinutes: 0)
    }

    /// Parses a PDF date; nil when not even a year can be read.
    public init?(parsing text: String) {
        var chars = Array(text.unicodeScalars.filter { !$0.properties.isWhitespace })
        if chars.count >= 2, chars[0] == "D", chars[1] == ":" { chars.removeFirst(2) }
        var index = 0
        func number(_ width: Int) -> Int? {
            // Skip separators some producers write ("2022-04-03T18:05:42").
            if index > 0 {
                while index < chars.count, "-:T/".unicodeScalars.contains(chars[index]) { index += 1 }
            }
            var value = 0
            var read = 0
            while read < width, index < chars.count, chars[index].value >= 0x30, chars[index].value <= 0x39 {
                value = value * 10 + Int(chars[index].value - 0x30)
                index += 1
                read += 1
            }
            return read == width ? value : nil
        }
        guard let year = number(4) else { return nil }
        self.year = year
        month = number(2) ?? 1
        day = number(2) ?? 1
        hour = number(2) ?? 0
        minute = number(2) ?? 0
        second = number(2) ?? 0
        utcOffsetMinutes = nil
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            // Out-of-range fields (a "month 13") make the date unusable but not the year.
            if !(1...12).contains(month) { month = 1 }
            if !(1...31).contains(day) { day = 1 }
            hour = min(hour, 23)
            minute = min(minute, 59)
            second = min(second, 59)
            return
        }
        // Skip any fraction of seconds.
        if index < chars.count, chars[index] == "." {
            index += 1
            while index < chars.count, chars[index].value >= 0x30, chars[index].value <= 0x39 { index += 1 }
        }
        guard index < chars.count else { return }
        let sign = chars[index]
        index += 1
        if sign == "Z" || sign == "z" {
            utcOffsetMinutes = 0
            return
        }
        guard sign == "+" || sign == "-" else { return }
        let hours = number(2) ?? 0
        while index < chars.count, chars[index] == "'" || chars[index] == ":" { index += 1 }
        let minutes = number(2) ?? 0
        guard hours < 24, minutes < 60 else { return }
        utcOffsetMinutes = (sign == "-" ? -1 : 1) * (hours * 60 + minutes)
    }

    /// ISO 8601 (`2022-04-03T18:05:42+02:00`; no zone when the PDF date has none).
    public var iso8601: String {
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if let offset = utcOffsetMinutes {
            text += (offset < 0 ? "-" : "+") + "\(pad(abs(offset) / 60, 2)):\(pad(abs(offset) % 60, 2))"
        }
        return text
    }

    /// The PDF form, as Folio writes it (`D:20220403180542+02'00'`, or `Z`).
    public var pdfString: String {
        var text = "D:\(pad(year, 4))\(pad(month, 2))\(pad(day, 2))\(pad(hour, 2))\(pad(minute, 2))\(pad(second, 2))"
        if let offset = utcOffsetMinutes {
            text += offset == 0 ? "Z" : (offset < 0 ? "-" : "+") + "\(pad(abs(offset) / 60, 2))'\(pad(abs(offset) % 60, 2))'"
        }
        return text
    }

    public var description: String { iso8601 }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
