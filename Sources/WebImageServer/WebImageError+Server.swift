public import WebImage
import WebImageHTTP

extension WebImageError.Code {
    /// An image URL's signature is missing, malformed or signs another path (HTTP `403`).
    public static let invalidSignature = WebImageError.Code(rawValue: "invalidSignature")
    /// The source is of a kind the service does not fetch, or a `local://` path outside the root (HTTP `403`).
    public static let sourceRefused = WebImageError.Code(rawValue: "sourceRefused")
    /// The source does not exist: the origin answered 4xx, or no such local file (HTTP `404`).
    public static let sourceNotFound = WebImageError.Code(rawValue: "sourceNotFound")
    /// A server setting is invalid (a key that is not hex, a missing root, …).
    public static let invalidServerConfiguration = WebImageError.Code(rawValue: "invalidServerConfiguration")
}

/// Where a request failed: the same code means different statuses at different stages
/// (`tooLarge` while fetching is `413`, while decoding `422`).
enum RequestStage: String, Sendable {
    case parse, fetch, process
}

/// An HTTP answer for a failure: status and a short text body.
struct FailureAnswer: Sendable, Equatable {
    var status: Int
    var code: String
    var message: String

    /// The status for `error` at `stage`; bad input is never a 5xx except an origin that fails (502).
    /// Failures that could tell a client about the network behind the service (an SSRF refusal
    /// quoting DNS answers, a connection error naming an internal address, an origin's own
    /// answer) carry a short fixed reason; the caller logs the detail.
    init(_ error: WebImageError, stage: RequestStage) {
        code = error.code.rawValue
        message = Self.publicMessage(error, stage: stage)
        switch error.code {
        case .invalidProcessingOptions, .invalidURL, .invalidTransform: status = 400
        case .invalidSignature, .sourceRefused, .urlRefused, .blockedURL: status = 403
        case .sourceNotFound, .fileUnreadable: status = 404
        case .tooLarge: status = stage == .fetch ? 413 : 422
        case .badImageData, .unsupportedFormat, .decodingFailed, .invalidDownloadContentType: status = 422
        case .timedOut: status = 504
        case .overloaded: status = 503
        case .invalidDownloadStatusCode:
            // The origin's own 4xx is "no such source"; its 5xx is a bad gateway.
            status = (400..<500).contains(error.statusCode ?? 500) ? 404 : 502
        case .networkError, .invalidDownloadResponse: status = 502
        // The object store refused the service's own credentials or region: not the client's fault.
        case .storageSettings: status = 502
        default: status = 500
        }
    }

    /// What a client is told of `error`.
    static func publicMessage(_ error: WebImageError, stage: RequestStage) -> String {
        switch error.code {
        case .urlRefused, .blockedURL: return "the source's address is not allowed"
        case .sourceRefused: return stage == .parse ? error.message : "the source is not allowed"
        case .networkError: return "the source could not be reached"
        case .storageSettings: return "the source's store refused the service's S3 settings"
        case .invalidDownloadStatusCode:
            return error.statusCode.map { "the source answered HTTP \($0)" } ?? "the source failed"
        case .invalidDownloadResponse, .invalidDownloadContentType: return "the source's answer is not an image"
        case .timedOut where stage == .fetch: return "the source took too long"
        default: return error.message
        }
    }

    init(status: Int, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
}

/// A route throws a ``FailureAnswer`` for a refusal of its own (``FailureAnswerMiddleware`` answers it).
extension FailureAnswer: Error {}
