public import Foundation

/// kitty's terminal graphics protocol (<https://sw.kovidgoyal.net/kitty/graphics-protocol/>):
/// a PNG sent inline, in base64 chunks of at most 4096 bytes, each an APC sequence
/// `ESC _ G <keys> ; <payload> ESC \`.
///
/// The first chunk carries the keys: `a=T` (transmit and display), `f=100` (PNG), `t=d` (direct
/// data), `q=2` (no replies), `c`/`r` (columns and rows to scale into), `i`/`p` (image and
/// placement ids, so a redraw replaces the image in place) and `C=1` (leave the cursor where it
/// is) when asked; then `m=1` while more chunks follow, `m=0` on the last. Later chunks carry
/// only `m`.
///
/// ```swift
/// Terminal.write(KittyGraphics.sequence(png: data, columns: 20, rows: 10))
/// ```
public enum KittyGraphics {
    /// Base64 bytes per chunk (the protocol's maximum).
    public static let chunkSize = 4096

    /// The escape sequences that draw `png` over `columns`×`rows` cells at the cursor.
    public static func sequence(
        png: Data, columns: Int, rows: Int, imageID: UInt32? = nil, placementID: UInt32? = nil,
        moveCursor: Bool = true
    ) -> String {
        var keys = "a=T,f=100,t=d,q=2,c=\(columns),r=\(rows)"
        if let imageID { keys += ",i=\(imageID)" }
        if let placementID { keys += ",p=\(placementID)" }
        if !moveCursor { keys += ",C=1" }
        let payload = Array(png.base64EncodedString().utf8)
        var out = ""
        var start = 0
        repeat {
            let end = min(payload.count, start + chunkSize)
            let more = end < payload.count ? 1 : 0
            let chunk = String(decoding: payload[start..<end], as: UTF8.self)
            out += start == 0 ? "\u{1B}_G\(keys),m=\(more);\(chunk)\u{1B}\\" : "\u{1B}_Gm=\(more);\(chunk)\u{1B}\\"
            start = end
        } while start < payload.count
        return out
    }
}
