public import Foundation

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate written, and the three forms a recipient must accept
/// read (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850's `Sunday, 06-Nov-94 08:49:37 GMT`, and
/// asctime's `Sun Nov  6 08:49:37 1994`).
///
/// ```swift
/// let date = HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")     // 784111777 s after 1970
/// let text = HTTPDate.format(Date())                             // for Last-Modified
/// ```
public enum HTTPDate {
    /// `date` as an IMF-fixdate.
    public static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// The date `text` names in any of the three forms, or nil when it is none of them.
    public static func parse(_ text: some StringProtocol) -> Date? {
        let tokens = Substring(text).split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" || $0 == ":" })
        // The weekday comes first in every form; its spelling is not checked.
        guard tokens.count >= 7 else { return nil }
        let day: Int?, month: Int?, year: Int?, clock: ArraySlice<Substring>
        if let asctimeMonth = monthNumber(tokens[1]) {
            // asctime: weekday month day hh mm ss yyyy
            guard tokens.count == 7 else { return nil }
            (month, day, year, clock) = (asctimeMonth, Int(tokens[2]), Int(tokens[6]), tokens[3...5])
        } else {
            // IMF-fixdate and RFC 850: weekday day month year hh mm ss GMT
            guard tokens.count == 8, tokens[7] == "GMT" else { return nil }
            var fullYear = Int(tokens[3])
            // RFC 850's two digits: RFC 9110 reads 50 or more years ahead as the past century.
            if let short = fullYear, tokens[3].count == 2 { fullYear = short < 50 ? 2000 + short : 1900 + short }
            (day, month, year, clock) = (Int(tokens[1]), monthNumber(tokens[2]), fullYear, tokens[4...6])
        }
        guard let day, let month, let year, (1...31).contains(day),
            let hour = Int(clock[clock.startIndex]), let minute = Int(clock[clock.startIndex + 1]),
            let second = Int(clock[clock.startIndex + 2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func monthNumber(_ token: Substring) -> Int? {
        months.firstIndex(of: token.lowercased()).map { $0 + 1 }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
