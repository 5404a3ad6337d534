import Foundation

/// HTTP-date (RFC 9110 §5.6.7): the IMF-fixdate recipients must read, and the obsolete RFC 850
/// and asctime forms. Names are matched without case; anything else (another zone, missing comma,
/// extra spaces, one-digit hours) is not a date.
enum HTTPDate {
    private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The instant `text` names, or nil when it is not an HTTP-date.
    static func parse(_ text: String) -> Date? {
        let lower = text.lowercased()
        let parts = lower.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), days.contains(String(parts[0].prefix(3))) {
            // Sun, 06 Nov 1994 08:49:37 GMT
            guard parts[1].count == 2, let day = Int(parts[1]), let month = months.firstIndex(of: parts[2]),
                parts[3].count == 4, let year = Int(parts[3]), parts[5] == "gmt"
            else { return nil }
            return make(year: year, month: month + 1, day: day, time: parts[4])
        }
        if parts.count == 4, parts[0].hasSuffix(","), longDays.contains(String(parts[0].dropLast())) {
            // Sunday, 06-Nov-94 08:49:37 GMT
            let date = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard date.count == 3, date[0].count == 2, let day = Int(date[0]),
                let month = months.firstIndex(of: date[1]), date[2].count == 2, let shortYear = Int(date[2]),
                parts[3] == "gmt"
            else { return nil }
            let year = shortYear < 70 ? 2000 + shortYear : 1900 + shortYear
            return make(year: year, month: month + 1, day: day, time: parts[2])
        }
        // Sun Nov  6 08:49:37 1994 (a one-digit day is preceded by a second space)
        let fields = lower.split(separator: " ").map(String.init)
        guard fields.count == 5, days.contains(fields[0]), let month = months.firstIndex(of: fields[1]),
            (1...2).contains(fields[2].count), let day = Int(fields[2]), fields[4].count == 4,
            let year = Int(fields[4])
        else { return nil }
        let expectedSpacing = "\(fields[0]) \(fields[1]) \(fields[2].count == 1 ? " " : "")\(fields[2]) "
        guard lower.hasPrefix(expectedSpacing) else { return nil }
        return make(year: year, month: month + 1, day: day, time: fields[3])
    }

    /// Formats `date` as an IMF-fixdate.
    static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(dayNames[((parts.weekday ?? 1) - 1) % 7]), \(two(parts.day)) "
            + "\(monthNames[((parts.month ?? 1) - 1) % 12]) \(parts.year ?? 1970) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }

    private static func make(year: Int, month: Int, day: Int, time: String) -> Date? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            hour < 24, minute < 60, second <= 60, (1...31).contains(day)
        else { return nil }
        // Days since 1970-01-01 by the proleptic Gregorian calendar (civil-from-days, inverted).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
