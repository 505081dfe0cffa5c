#!/usr/bin/env bash
# The run command: installs the codec libraries when missing, builds the `webimage` tool (release) and
# runs it with the given arguments, e.g.  scripts/webimage.sh convert in.jpg out.webp --thumbnail 256
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/install-system-packages.sh" >&2
swift build --package-path "$root" -c release --static-swift-stdlib --product webimage >&2
# The SVG renderer process, which webimage finds beside itself.
swift build --package-path "$root" -c release --static-swift-stdlib --product webimage-svg-render >&2
exec "$root/.build/release/webimage" "$@"
