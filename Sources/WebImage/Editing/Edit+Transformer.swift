extension Edit {
    /// The library transformer this edit stands for. `maxPixelCount` bounds the canvas a
    /// rotation by an angle that is not a multiple of 90° may grow to (not part of any key); a
    /// crop without an origin is centred unless its gravity says otherwise, and a side of 0 keeps
    /// that side whole.
    ///
    /// ```swift
    /// let blurred = try Edit.blur(sigma: 2).transformer().transform(image)
    /// ```
    public func transformer(maxPixelCount: Int = ImageDecodingOptions.defaultMaxPixelCount) -> any ImageTransforming {
        switch self {
        case .blur(let sigma): GaussianBlurTransformer(sigma: sigma)
        case .sharpen(let sigma): SharpenTransformer(sigma: sigma)
        case .roundCorner(let radius, let border, let color):
            RoundCornerTransformer(radius: radius, borderWidth: border, borderColor: color)
        case .circle(let border, let color): RoundCornerTransformer.circle(borderWidth: border, borderColor: color)
        case .tint(let color, let mode): TintTransformer(color: color, blendMode: mode)
        case .grayscale(let amount): ColorMatrixTransformer.grayscale(amount)
        case .sepia(let amount): ColorMatrixTransformer.sepia(amount)
        case .brightness(let factor): ColorMatrixTransformer.brightness(factor)
        case .contrast(let factor): ColorMatrixTransformer.contrast(factor)
        case .saturation(let factor): ColorMatrixTransformer.saturation(factor)
        case .invert(let amount): ColorMatrixTransformer.invert(amount)
        case .rotate(let degrees): RotateTransformer(degrees: degrees, maxPixelCount: maxPixelCount)
        case .flip(let horizontal, let vertical): FlipTransformer(horizontal: horizontal, vertical: vertical)
        case .crop(let crop):
            if let origin = crop.origin {
                CropTransformer(rect: PixelRect(x: origin.x, y: origin.y, width: crop.width, height: crop.height))
            } else {
                // A larger size is clipped to the image: 0 (the whole side) becomes "as large as any".
                GravityCropTransformer(
                    size: PixelSize(width: crop.width == 0 ? Int.max : crop.width, height: crop.height == 0 ? Int.max : crop.height),
                    anchor: crop.gravity ?? .gravity(.center))
            }
        }
    }
}
