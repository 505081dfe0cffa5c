#!/usr/bin/env bash
# Decodes every frame of the public corpus's valid animated GIFs and WebPs (per manifest.json) with
# WebImage, Pillow and pyvips in one run, each on one thread, and prints frames per second and
# the ratios (ours ÷ theirs: above 1 means WebImage is faster). Anchors that are not installed are
# skipped with a note. DURATION sets how long each one runs, in seconds (default 3).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${WEBIMAGE_CORPUS:-$(cd "$here/../.." && pwd)/shared/corpus/public}"
export WEBIMAGE_CORPUS="$corpus"
SECONDS_EACH="${DURATION:-3}"
[[ -f "$corpus/manifest.json" ]] || { echo "corpus not found at $corpus (set WEBIMAGE_CORPUS)"; exit 1; }

swift build -c release --package-path "$here" --product webimage-bench >&2
bench="$here/.build/release/webimage-bench"

ours="$("$bench" animated-frames "$SECONDS_EACH")"
echo "$ours"
ours_fps="$(sed -E 's/.*frames_per_s=([0-9.]+).*/\1/' <<<"$ours")"

anchor() {  # pillow | pyvips -> frames per second (or n/a)
    VIPS_CONCURRENCY=1 OMP_NUM_THREADS=1 python3 - "$1" "$corpus" "$SECONDS_EACH" <<'PY' 2>/dev/null || echo "n/a"
import io, json, os, sys, time
tool, corpus, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
manifest = json.load(open(os.path.join(corpus, "manifest.json")))
files = [f["file"] for f in manifest["files"]
         if f["format"] in ("gif", "webp") and f.get("animated") and f["expected_validity"] == "valid"]
datas = [open(os.path.join(corpus, name), "rb").read() for name in files]
if tool == "pillow":
    from PIL import Image
    def run():
        frames = 0
        for data in datas:
            image = Image.open(io.BytesIO(data))
            for index in range(getattr(image, "n_frames", 1)):
                image.seek(index)
                image.load()
                frames += 1
        return frames
else:
    import pyvips
    pyvips.cache_set_max(0)
    pyvips.concurrency_set(1)
    def run():
        frames = 0
        for data in datas:
            image = pyvips.Image.new_from_buffer(data, "", n=-1, access="sequential")
            image.write_to_memory()
            frames += image.get("n-pages") if image.get_typeof("n-pages") else 1
        return frames
run()
start = time.perf_counter()
frames = 0
while True:
    frames += run()
    elapsed = time.perf_counter() - start
    if elapsed >= seconds:
        break
print(f"{frames / elapsed:.0f}")
PY
}

for tool in pillow pyvips; do
    fps="$(anchor "$tool")"
    if [[ "$fps" == "n/a" ]]; then
        echo "$tool: not installed (skipped)"
    else
        ratio="$(awk -v a="$ours_fps" -v b="$fps" 'BEGIN { printf "%.2f", a / b }')"
        echo "$tool frames_per_s=$fps   WebImage ÷ $tool = ${ratio}×"
    fi
done
