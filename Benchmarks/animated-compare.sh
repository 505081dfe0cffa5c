#!/usr/bin/env bash
# Decodes every frame of the public corpus's valid animated GIFs and WebPs (per manifest.json) with
# WebImage, Pillow and pyvips in one run, each on one thread, and prints frames per second and
# the ratios (ours ÷ theirs: above 1 means WebImage is faster), by the wall clock and per CPU second
# (on a shared, busy machine the CPU-time figure is the steadier one; `valgrind --tool=callgrind`
# instruction counts are steadier still). Anchors that are not installed are
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
ours_fps="$(sed -E 's/.* frames_per_s=([0-9.]+).*/\1/' <<<"$ours")"
ours_cpu="$(sed -E 's/.*cpu_frames_per_s=([0-9.]+).*/\1/' <<<"$ours")"

anchor() {  # pillow | pyvips -> "frames per second, frames per CPU second" (or n/a)
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
start, cpu_start = time.perf_counter(), time.process_time()
frames = 0
while True:
    frames += run()
    elapsed = time.perf_counter() - start
    if elapsed >= seconds:
        break
print(f"{frames / elapsed:.0f} {frames / (time.process_time() - cpu_start):.0f}")
PY
}

for tool in pillow pyvips; do
    result="$(anchor "$tool")"
    if [[ "$result" == "n/a" ]]; then
        echo "$tool: not installed (skipped)"
    else
        read -r fps cpu <<<"$result"
        ratio="$(awk -v a="$ours_fps" -v b="$fps" 'BEGIN { printf "%.2f", a / b }')"
        cpu_ratio="$(awk -v a="$ours_cpu" -v b="$cpu" 'BEGIN { printf "%.2f", a / b }')"
        echo "$tool frames_per_s=$fps cpu_frames_per_s=$cpu   WebImage ÷ $tool = ${ratio}× (per CPU second: ${cpu_ratio}×)"
    fi
done
