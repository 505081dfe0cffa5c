#!/usr/bin/env bash
# `webimage convert` as a batch tool beside vipsthumbnail: the same JPEGs (the public corpus's 50
# largest valid ones, or $INPUTS, a file listing paths) turned into 256 px JPEG thumbnails at
# quality 80, all files in one process. Prints the wall time and files per second of:
#   - webimage, one process, --jobs 1 and --jobs 2 (the default on this 2-core machine: one per core);
#   - vipsthumbnail, one process (it works through its files one after another; libvips threads
#     inside one image), and two vipsthumbnail processes over halves of the list (xargs -P 2);
#   - webimage started once per file (what a shell loop over the single-file form costs).
# Each figure is the best of R runs (default 3). WEBIMAGE (default: the release build) picks the binary.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${WEBIMAGE_CORPUS:-$(cd "$here/../.." && pwd)/shared/corpus/public}"
R="${R:-3}"
cli="${WEBIMAGE:-$here/../.build/release/webimage}"
if [[ -z "${WEBIMAGE:-}" ]]; then swift build -c release --package-path "$here/.." --product webimage >&2; fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [[ -n "${INPUTS:-}" ]]; then
    cp "$INPUTS" "$work/list"
else
    [[ -f "$corpus/manifest.json" ]] || { echo "corpus not found at $corpus (set WEBIMAGE_CORPUS or INPUTS)"; exit 1; }
    python3 - "$corpus" > "$work/list" <<'PY'
import json, os, sys
root = sys.argv[1]
files = json.load(open(os.path.join(root, "manifest.json")))["files"]
jpegs = [f for f in files if f.get("format") == "jpeg" and f.get("expected_validity") == "valid" and not f.get("animated")]
jpegs.sort(key=lambda f: -f["size"])
for f in jpegs[:50]:
    print(os.path.join(root, f["file"]))
PY
fi
count=$(wc -l < "$work/list")
megabytes=$(xargs -d '\n' stat -c %s < "$work/list" | awk '{s += $1} END {printf "%.1f", s / 1e6}')
echo "$count JPEGs, $megabytes MB → 256 px JPEG q80"

best() {  # best wall seconds of R runs of "$@"
    local best=""
    for _ in $(seq "$R"); do
        rm -rf "$work/out" && mkdir -p "$work/out"
        local start end
        start=$(date +%s%N)
        "$@" > /dev/null 2>&1 || true
        end=$(date +%s%N)
        local seconds
        seconds=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", (b - a) / 1e9}')
        if [[ -z "$best" ]] || awk -v s="$seconds" -v b="$best" 'BEGIN {exit !(s < b)}'; then best=$seconds; fi
    done
    echo "$best"
}
report() {  # label seconds
    awk -v l="$1" -v s="$2" -v n="$count" 'BEGIN {printf "%-44s %7.3f s  %6.1f files/s\n", l, s, n / s}'
}

webimage_batch() { xargs -d '\n' sh -c '"$0" convert "$@" -o "'"$work"'/out" --thumbnail 256 --quality 80 --format jpeg --jobs "'"$1"'"' "$cli" < "$work/list"; }
webimage_jobs1() { webimage_batch 1; }
webimage_jobs2() { webimage_batch 2; }
webimage_each() { while read -r f; do "$cli" convert "$f" "$work/out/$(basename "${f%.*}").jpg" --thumbnail 256 --quality 80; done < "$work/list"; }
vips_one() { xargs -d '\n' vipsthumbnail -s 256 -o "$work/out/%s.jpg[Q=80]" < "$work/list"; }
vips_two() { xargs -d '\n' -P 2 -n $(((count + 1) / 2)) vipsthumbnail -s 256 -o "$work/out/%s.jpg[Q=80]" < "$work/list"; }

ours1=$(best webimage_jobs1); report "webimage convert … -o DIR --jobs 1" "$ours1"
ours2=$(best webimage_jobs2); report "webimage convert … -o DIR --jobs 2" "$ours2"
each=$(best webimage_each); report "webimage convert IN OUT, once per file" "$each"
if command -v vipsthumbnail > /dev/null; then
    vips1=$(best vips_one); report "vipsthumbnail, one process" "$vips1"
    vips2=$(best vips_two); report "vipsthumbnail, two processes (xargs -P 2)" "$vips2"
    awk -v a="$ours1" -v b="$vips1" 'BEGIN {printf "one worker ÷ one vipsthumbnail: %.2f× the speed\n", b / a}'
    awk -v a="$ours2" -v b="$vips2" 'BEGIN {printf "two workers ÷ two vipsthumbnails: %.2f× the speed\n", b / a}'
else
    echo "vipsthumbnail not installed: no anchor"
fi
