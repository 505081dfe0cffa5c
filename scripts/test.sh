#!/usr/bin/env bash
# The test command: installs what the tests need, builds everything with warnings as errors, and runs
# every test, the corpus conformance suite included (corpus at ../shared/corpus/public or $WEBIMAGE_CORPUS).
# Without the corpus that suite is skipped with a note; WEBIMAGE_REQUIRE_CORPUS=1 (as .ci/run sets)
# makes it fail instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-packages.sh --tools
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build "$@"
