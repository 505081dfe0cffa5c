#!/usr/bin/env bash
# `webimage convert` as a batch tool beside vipsthumbnail: the same JPEGs (the public corpus's 50
# largest valid ones, or $INPUTS, a file listing paths) turned into 256 px JPEG thumbnails at
# quality 80, all files in one process. Prints the wall time and files per second of:
#   - webimage, one process, --jobs 1 and --jobs 2 (the default on this 2-core machine: one per core);
#   - vipsthumbnail, one process (it works through its files one after another; libvips threads
#     inside one image), and two vipsthumbnail processes over halves of the list (xargs -P 2);
#   - webimage started once per file (what a shell loop over the single-file form costs);
#   - Pillow (and pillow-simd when $PILLOW_SIMD_PYTHON names a Python that has it), one process,
#     one thread: draft (DCT scaling) + thumbnail (Lanczos, reducing gap 2) + save at quality 80,
#     the same pipeline as ours.
# vipsthumbnail's one-process line runs with VIPS_CONCURRENCY=1 (one thread, as our --jobs 1).
# Each line is the run with the least CPU time of R (default 3): wall time and CPU time (user +
# system, children included). One-thread lines are compared by CPU time (a shared machine's wall
# clock counts waiting), the two-worker lines by wall time. WEBIMAGE (default: the release build) picks the binary.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${WEBIMAGE_CORPUS:-$(cd "$here/../.." && pwd)/shared/corpus/public}"
R="${R:-3}"
cli="${WEBIMAGE:-$here/../.build/release/webimage}"
if [[ -z "${WEBIMAGE:-}" ]]; then swift build -c release --static-swift-stdlib --package-path "$here/.." --product webimage >&2; fi
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

best() {  # "wall cpu" seconds of the run with the least CPU time (user + system, children included) of R runs of function $1
    local best="" line
    for _ in $(seq "$R"); do
        rm -rf "$work/out" && mkdir -p "$work/out"
        /usr/bin/time -o "$work/time" -f "%e %U %S" bash -c "$1" > /dev/null 2>&1 || true
        line=$(tail -1 "$work/time" | awk '{printf "%.3f %.3f", $1, $2 + $3}')
        if [[ -z "$best" ]] || awk -v s="${line#* }" -v b="${best#* }" 'BEGIN {exit !(s < b)}'; then best=$line; fi
    done
    echo "$best"
}
report() {  # label "wall cpu"
    awk -v l="$1" -v w="${2% *}" -v c="${2#* }" -v n="$count" \
        'BEGIN {printf "%-44s %7.3f s wall %6.1f files/s   %7.3f s CPU %6.1f files per CPU s\n", l, w, n / w, c, n / c}'
}
cpu() { echo "${1#* }"; }
wall() { echo "${1% *}"; }

webimage_batch() { xargs -d '\n' sh -c '"$0" convert "$@" -o "'"$work"'/out" --thumbnail 256 --quality 80 --format jpeg --jobs "'"$1"'"' "$cli" < "$work/list"; }
webimage_jobs1() { webimage_batch 1; }
webimage_jobs2() { webimage_batch 2; }
webimage_each() { while read -r f; do "$cli" convert "$f" "$work/out/$(basename "${f%.*}").jpg" --thumbnail 256 --quality 80; done < "$work/list"; }
vips_one() { VIPS_CONCURRENCY=1 xargs -d '\n' vipsthumbnail -s 256 -o "$work/out/%s.jpg[Q=80]" < "$work/list"; }
pillow_loop() {  # python -> the thumbnail pipeline over the list in one process
    "$1" - "$work/list" "$work/out" <<'PY'
import os, sys
from PIL import Image
for path in open(sys.argv[1]).read().splitlines():
    try:
        im = Image.open(path)
        im.draft("RGB", (256, 256))
        im.thumbnail((256, 256), Image.Resampling.LANCZOS)
        im.convert("RGB").save(os.path.join(sys.argv[2], os.path.basename(path)), quality=80)
    except Exception as error:
        print(path, error, file=sys.stderr)
PY
}
pillow_system() { pillow_loop python3; }
pillow_simd() { pillow_loop "$PILLOW_SIMD_PYTHON"; }
vips_two() { xargs -d '\n' -P 2 -n $(((count + 1) / 2)) vipsthumbnail -s 256 -o "$work/out/%s.jpg[Q=80]" < "$work/list"; }

export work cli count PILLOW_SIMD_PYTHON
export -f webimage_batch webimage_jobs1 webimage_jobs2 webimage_each vips_one vips_two pillow_loop pillow_system pillow_simd
ours1=$(best webimage_jobs1); report "webimage convert … -o DIR --jobs 1" "$ours1"
ours2=$(best webimage_jobs2); report "webimage convert … -o DIR --jobs 2" "$ours2"
each=$(best webimage_each); report "webimage convert IN OUT, once per file" "$each"
best_anchor=""
if python3 -c "import PIL" 2> /dev/null; then
    pil=$(best pillow_system); report "Pillow $(python3 -c 'import PIL; print(PIL.__version__)'), one process" "$pil"; best_anchor=$pil
fi
if [[ -n "${PILLOW_SIMD_PYTHON:-}" ]]; then
    simd=$(best pillow_simd); report "pillow-simd $("$PILLOW_SIMD_PYTHON" -c 'import PIL; print(PIL.__version__)'), one process" "$simd"
    if [[ -z "$best_anchor" ]] || awk -v a="$(cpu "$simd")" -v b="$(cpu "$best_anchor")" 'BEGIN {exit !(a < b)}'; then best_anchor=$simd; fi
fi
if command -v vipsthumbnail > /dev/null; then
    vips1=$(best vips_one); report "vipsthumbnail, one process" "$vips1"
    vips2=$(best vips_two); report "vipsthumbnail, two processes (xargs -P 2)" "$vips2"
    awk -v a="$(cpu "$ours1")" -v b="$(cpu "$vips1")" 'BEGIN {printf "one worker ÷ one vipsthumbnail thread: %.2f× the files per CPU second\n", b / a}'
    if [[ -z "$best_anchor" ]] || awk -v a="$(cpu "$vips1")" -v b="$(cpu "$best_anchor")" 'BEGIN {exit !(a < b)}'; then best_anchor=$vips1; fi
    awk -v a="$(wall "$ours2")" -v b="$(wall "$vips2")" 'BEGIN {printf "two workers ÷ two vipsthumbnails: %.2f× the speed (wall)\n", b / a}'
else
    echo "vipsthumbnail not installed: no anchor"
fi
if [[ -n "$best_anchor" ]]; then
    awk -v a="$(cpu "$ours1")" -v b="$(cpu "$best_anchor")" 'BEGIN {printf "one worker ÷ the fastest one-thread anchor: %.2f× the files per CPU second (goal 1.3×)\n", b / a}'
fi
