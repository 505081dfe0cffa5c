extension WebImageError.Code {
    /// A transformer was given parameters it cannot apply (a negative blur sigma, a non-finite
    /// angle, an empty crop size, …).
    public static let invalidTransform = WebImageError.Code(rawValue: "invalidTransform")
}

extension WebImageError {
    /// An ``Code/invalidTransform`` error naming the transformer and the bad parameter.
    static func invalidTransform(_ message: String) -> WebImageError {
        WebImageError(.invalidTransform, message)
    }
}
