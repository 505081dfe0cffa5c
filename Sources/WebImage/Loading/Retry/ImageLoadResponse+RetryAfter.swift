public import Foundation

extension ImageLoad.Response {
    /// The wait `Retry-After` asks for, as of `now`: delay-seconds, or an HTTP date (a date in the
    /// past is zero). Nil without the header or when it is neither.
    ///
    /// ```swift
    /// if let wait = response.retryAfter() { print("come back in \(wait)") }
    /// ```
    public func retryAfter(now: Date = Date()) -> Duration? {
        guard let value = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return nil
        }
        if value.allSatisfy(\.isASCIIDigit) {
            // Anything beyond a year is no different from "not in this request's lifetime".
            return .seconds(Int(value.prefix(9)) ?? 0)
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        return .milliseconds(max(0, Int64((date.timeIntervalSince(now) * 1000).rounded(.up))))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
