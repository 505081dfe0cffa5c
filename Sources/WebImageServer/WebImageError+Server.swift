public import WebImage

extension WebImageError.Code {
    /// An image URL's processing options or source could not be parsed (HTTP `400`).
    public static let invalidProcessingOptions = WebImageError.Code(rawValue: "invalidProcessingOptions")
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
    init(_ error: WebImageError, stage: RequestStage) {
        code = error.code.rawValue
        message = error.message
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
        default: status = 500
        }
    }

    init(status: Int, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
}
