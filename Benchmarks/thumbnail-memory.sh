#!/usr/bin/env bash
# Peak memory of a 256 px thumbnail decode of a generated 24-megapixel JPEG (6000×4000), beside a
# full decode of the same file. A full-size RGBA bitmap is 96,000,000 bytes; the thumbnail path
# (libjpeg-turbo DCT scaling to 1/8, then Lanczos to 256 px) must stay far below that.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
swift build -c release --package-path "$here" --product webimage-bench >&2
swift build -c release --static-swift-stdlib --package-path "$here/.." --product webimage >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$here/.build/release/webimage-bench" make-jpeg 6000x4000 "$work/24mp.jpg"
cli="$here/../.build/release/webimage"
peak_kib() { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1; }
thumb="$(peak_kib "$cli" convert "$work/24mp.jpg" "$work/thumb.png" --thumbnail 256)"
full="$(peak_kib "$cli" info "$work/24mp.jpg")"
echo "24 MP JPEG ($(stat -c %s "$work/24mp.jpg") bytes); a full-size RGBA bitmap is 96000000 bytes"
echo "thumbnail 256 px: peak RSS $((thumb / 1024)) MiB  ($("$cli" info "$work/thumb.png" | grep dimensions))"
echo "full decode:      peak RSS $((full / 1024)) MiB"
