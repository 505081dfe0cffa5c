#!/usr/bin/env bash
# Runs the HTTP loader benchmark: WebImage's HTTPImageLoader and, as the anchor, curl --parallel
# (--parallel-max 6) fetch the same 2,000 x 10 KB and 50 x 5 MB images from one loopback server
# (127.0.0.1, ephemeral port) in one run. RUNS sets the rounds per figure (median; default 3).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
swift build -c release --package-path "$here" --product webimage-loader-bench >&2
exec "$here/.build/release/webimage-loader-bench"
