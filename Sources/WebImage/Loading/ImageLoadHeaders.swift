extension ImageLoad {
    /// An ordered list of HTTP header fields whose names compare case-insensitively.
    ///
    /// Setting a name through the subscript replaces every field of that name; ``add(_:_:)`` keeps
    /// repeated fields (as `Set-Cookie` needs).
    ///
    /// ```swift
    /// var headers: ImageLoad.Headers = ["Accept": "image/*"]
    /// headers["accept"] = "image/webp"      // replaces
    /// print(headers["ACCEPT"] ?? "")        // "image/webp"
    /// ```
    public struct Headers: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
        /// One header field.
        public struct Field: Sendable, Hashable {
            /// The field name as it was given.
            public var name: String
            /// The field value.
            public var value: String

            /// A field of `name` and `value`.
            public init(name: String, value: String) {
                self.name = name
                self.value = value
            }
        }

        /// Every field, in order.
        public private(set) var fields: [Field] = []

        /// No fields.
        public init() {}

        /// The given fields, in order.
        public init(_ fields: [(String, String)]) {
            self.fields = fields.map { Field(name: $0.0, value: $0.1) }
        }

        public init(dictionaryLiteral elements: (String, String)...) {
            self.init(elements)
        }

        /// The first value of `name`, or nil; setting replaces every field of that name (nil removes them).
        public subscript(name: String) -> String? {
            get { fields.first { $0.name.lowercased() == name.lowercased() }?.value }
            set {
                let lower = name.lowercased()
                guard let newValue else {
                    fields.removeAll { $0.name.lowercased() == lower }
                    return
                }
                guard let first = fields.firstIndex(where: { $0.name.lowercased() == lower }) else {
                    fields.append(Field(name: name, value: newValue))
                    return
                }
                // The first field of that name keeps its place; later ones go.
                var kept: [Field] = []
                for (index, field) in fields.enumerated() {
                    if index == first {
                        kept.append(Field(name: field.name, value: newValue))
                    } else if field.name.lowercased() != lower {
                        kept.append(field)
                    }
                }
                fields = kept
            }
        }

        /// Every value of `name`, in order.
        public func values(for name: String) -> [String] {
            fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }

        /// Appends a field, keeping any others of the same name.
        public mutating func add(_ name: String, _ value: String) {
            fields.append(Field(name: name, value: value))
        }

        /// These fields with `other`'s laid over them: each name in `other` replaces that name here.
        public func merging(_ other: ImageLoad.Headers) -> ImageLoad.Headers {
            var result = self
            for name in Set(other.fields.map { $0.name.lowercased() }) { result[name] = nil }
            result.fields.append(contentsOf: other.fields)
            return result
        }

        /// Whether there are no fields.
        public var isEmpty: Bool { fields.isEmpty }

        public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
    }
}
