#!/usr/bin/env bash
# Builds the DocC documentation of the core module (getting started, the stages, caching, errors, the
# glossary, and every public symbol) with swift-docc-plugin, as static HTML in .build/docs/WebImage.
# Not part of CI. Open .build/docs/WebImage/documentation/webimage/index.html through any static server,
# e.g. `python3 -m http.server -d .build/docs/WebImage`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-packages.sh
mkdir -p .build/docs
swift package --allow-writing-to-directory .build/docs \
    generate-documentation --target WebImage \
    --output-path .build/docs/WebImage \
    --transform-for-static-hosting --hosting-base-path "" \
    "$@"
echo "Documentation: .build/docs/WebImage/documentation/webimage/index.html"
