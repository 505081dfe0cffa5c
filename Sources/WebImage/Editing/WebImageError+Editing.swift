extension WebImageError.Code {
    /// An edit, or an image URL's options or source, could not be parsed: an unknown name, a
    /// missing or malformed argument, or a value out of range (the service answers HTTP `400`).
    public static let invalidProcessingOptions = WebImageError.Code(rawValue: "invalidProcessingOptions")
}
