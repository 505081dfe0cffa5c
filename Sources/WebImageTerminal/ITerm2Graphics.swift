public import Foundation

/// iTerm2's inline images (<https://iterm2.com/documentation-images.html>): one OSC 1337
/// sequence `ESC ] 1337 ; File=<arguments> : <base64 file> BEL`.
///
/// The arguments are `inline=1` (show, do not download), `size` (the file's byte count),
/// `width`/`height` in cells (a bare number means cells) and `preserveAspectRatio=1`; `name`
/// (base64) when given.
///
/// ```swift
/// Terminal.write(ITerm2Graphics.sequence(png: data, columns: 20, rows: 10))
/// ```
public enum ITerm2Graphics {
    /// The escape sequence that draws `file` (any format the terminal decodes; we send PNG) over
    /// `columns`×`rows` cells at the cursor.
    public static func sequence(png file: Data, columns: Int, rows: Int, name: String? = nil) -> String {
        var arguments = ""
        if let name { arguments += "name=\(Data(name.utf8).base64EncodedString());" }
        arguments += "inline=1;size=\(file.count);width=\(columns);height=\(rows);preserveAspectRatio=1"
        return "\u{1B}]1337;File=\(arguments):\(file.base64EncodedString())\u{07}"
    }
}
