import Foundation
import WebImage

/// Drives the `data:` URL parser with the input as URL text (as given and behind `data:`), and
/// checks that the input's bytes survive a base64 and a percent-encoded round trip.
enum DataURLExercise {
    static func run(_ input: Data) -> FuzzOutcome {
        let text = String(decoding: input, as: UTF8.self)
        var firstError: WebImageError?
        var accepted = false
        for candidate in [text, "data:" + text] {
            guard let url = URL(string: candidate) else { continue }
            do {
                let (mediaType, _) = try DataURLImageLoader.decode(url)
                if mediaType.isEmpty { return .contractViolation("empty media type for \(candidate.debugDescription)") }
                accepted = true
            } catch let error as WebImageError {
                firstError = firstError ?? error
            } catch {
                return .contractViolation("decode threw \(type(of: error)), not WebImageError: \(error)")
            }
        }
        if let violation = roundTripViolation(input) { return .contractViolation(violation) }
        if accepted { return .accepted }
        return .rejected(firstError?.code ?? .invalidURL)
    }

    /// Encodes `input` as a base64 and as a percent-encoded data: URL; both must decode to it.
    private static func roundTripViolation(_ input: Data) -> String? {
        let percentEncoded = input.map { byte in
            "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
        }.joined()
        let encodings = [
            ("base64", "data:image/png;base64," + input.base64EncodedString(), "image/png"),
            ("percent", "data:application/octet-stream," + percentEncoded, "application/octet-stream"),
        ]
        for (name, text, expectedType) in encodings {
            guard let url = URL(string: text) else { return "\(name) data: URL of \(input.count) bytes is not a URL" }
            do {
                let (mediaType, data) = try DataURLImageLoader.decode(url)
                guard data == input else { return "\(name) round trip gave \(data.count) bytes for \(input.count)" }
                guard mediaType == expectedType else { return "\(name) round trip gave media type \(mediaType)" }
            } catch {
                return "\(name) round trip of \(input.count) bytes failed: \(error)"
            }
        }
        return nil
    }
}
