public import Foundation

extension ImageCodersManager {
    /// The steps every encode shares, around a format's own encoder: apply the EXIF orientation, fit
    /// inside ``ImageEncodingOptions/maxPixelSize``, then search for
    /// ``ImageEncodingOptions/maxFileSize``.
    ///
    /// The file-size search bisects the quality of lossy formats (``isLossy(_:options:)``) down to
    /// ``ImageEncodingOptions/maxFileSizeQualityFloor`` and, if the floor is still too large or
    /// the format is lossless, shrinks the image by steps of 0.75 until it fits (or its shorter
    /// side would pass ``ImageEncodingOptions/maxFileSizeMinimumSide``).
    public enum Encoding {
        /// Encodes `image` as `format` with `encoder`, honouring every option. The encoder's own error
        /// comes back as ``WebImageError/Code/encodingFailed`` naming it, with the error as the cause.
        public static func encode(
            _ image: Image, as format: ImageFormat, options: ImageEncodingOptions, with encoder: any ImageEncoding
        ) throws -> Data {
            do {
                return try encodeWithinLimits(image, as: format, options: options, with: encoder)
            } catch {
                throw WebImageError.wrapping(
                    error, code: .encodingFailed, "the \(coderName(encoder)) encoder failed to write \(format)")
            }
        }

        private static func encodeWithinLimits(
            _ image: Image, as format: ImageFormat, options: ImageEncodingOptions, with encoder: any ImageEncoding
        ) throws -> Data {
            var prepared = oriented(image)
            if let box = options.maxPixelSize {
                let target = ImageDecodingOptions.fit(prepared.pixelSize, into: box, preserveAspectRatio: true)
                if target != prepared.pixelSize { prepared = resized(prepared, to: target) }
            }
            guard let limit = options.maxFileSize, limit > 0 else {
                return try encoder.encode(prepared, as: format, options: options)
            }
            var attempt = options
            let best = try encoder.encode(prepared, as: format, options: attempt)
            if best.count <= limit { return best }

            if isLossy(format, options: options) {
                // The floor first: when even it is too large, the bisection cannot help.
                let floor = min(max(0, options.maxFileSizeQualityFloor), options.quality)
                attempt.quality = floor
                let smallest = try encoder.encode(prepared, as: format, options: attempt)
                if smallest.count <= limit {
                    // Bisect quality in [floor, options.quality): keep the largest quality that fits.
                    var low = floor
                    var high = options.quality
                    var fitting = smallest
                    for _ in 0..<7 {
                        attempt.quality = (low + high) / 2
                        let data = try encoder.encode(prepared, as: format, options: attempt)
                        if data.count <= limit {
                            fitting = data
                            low = attempt.quality
                        } else {
                            high = attempt.quality
                        }
                    }
                    return fitting
                }
                attempt.quality = floor
            }
            // Still too large: shrink by steps of 0.75 until the shorter side would pass the minimum.
            var current = prepared
            var last = best
            while true {
                let size = current.pixelSize
                let next = PixelSize(width: max(1, size.width * 3 / 4), height: max(1, size.height * 3 / 4))
                guard next != size, min(next.width, next.height) >= options.maxFileSizeMinimumSide else { break }
                current = resized(current, to: next)
                let data = try encoder.encode(current, as: format, options: attempt)
                if data.count <= limit { return data }
                last = data
            }
            if options.acceptsSmallestOverMaxFileSize { return last }
            throw WebImageError(.encodingFailed, "cannot encode \(format) within \(limit) bytes")
        }

        /// Whether `format` is written lossily with `options` (its quality then matters): JPEG, and
        /// WebP, AVIF, HEIC and JPEG XL unless ``ImageEncodingOptions/lossless``.
        public static func isLossy(_ format: ImageFormat, options: ImageEncodingOptions) -> Bool {
            switch format {
            case .jpeg: true
            case .webp, .avif, .heic, .jpegXL: !options.lossless
            default: false
            }
        }

        /// The image with its orientation applied to the pixels (and every frame).
        public static func oriented(_ image: Image) -> Image {
            let orientation = image.orientation
            guard orientation != .up else { return image }
            let animation = image.animation.map { source in
                let size = source.canvasSize
                let canvas = orientation.swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
                return MappedAnimation(source, canvasSize: canvas) { $0.oriented(orientation) } as any AnimatedImageSource
            }
            return Image(
                pixels: image.pixels.oriented(orientation), scale: image.scale, orientation: .up, format: image.format,
                animation: animation, hasAlpha: image.hasAlpha, colorProfile: image.colorProfile, metadata: image.metadata)
        }

        /// The image (and every frame) resampled to `size`.
        public static func resized(_ image: Image, to size: PixelSize) -> Image {
            let animation = image.animation.map { source in
                MappedAnimation(source, canvasSize: size) { Resampler.resample($0, to: size) } as any AnimatedImageSource
            }
            return Image(
                pixels: Resampler.resample(image.pixels, to: size), scale: image.scale, orientation: image.orientation,
                format: image.format, animation: animation, hasAlpha: image.hasAlpha,
                originalPixelSize: image.originalPixelSize, colorProfile: image.colorProfile, metadata: image.metadata)
        }
    }
}

extension PixelBuffer {
    /// Opaque straight-alpha pixels: these pixels composited over `background`.
    ///
    /// For encoders of formats without alpha (JPEG). Opaque pixels are their own flattening: they
    /// are only relabelled straight (one read pass, no copy).
    public func flattened(over background: RGBA8) -> PixelBuffer {
        if isOpaque { return relabelled(.straight) }
        let source = self.premultiplied()
        let bg = [UInt32(background.r), UInt32(background.g), UInt32(background.b)]
        return source.bytes.withUnsafeBufferPointer { src in
            PixelBuffer(width: width, height: height, alphaMode: .straight) { out in
                var i = 0
                while i < src.count {
                    let inverse = 255 - UInt32(src[i + 3])
                    for c in 0..<3 {
                        let t = bg[c] * inverse + 128
                        out[i + c] = UInt8(min(255, UInt32(src[i + c]) + ((t + (t >> 8)) >> 8)))
                    }
                    out[i + 3] = 255
                    i += 4
                }
            }
        }
    }
}
