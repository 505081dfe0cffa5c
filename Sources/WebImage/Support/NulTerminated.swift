extension String {
    /// The text before the first NUL of a C message buffer (for the shims' and libraries' error
    /// messages), decoded as UTF-8 with invalid bytes replaced.
    package init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
