#!/usr/bin/env bash
# JPEG XL and TIFF beside the libraries' own tools, same files, one run (issue 13's "Speed"):
#   jxl-decode  ours (in process)  vs  djxl --num_threads=1 --num_reps=N (its own MP/s figure)
#   jxl-encode  ours at quality 0.9 (distance 1.0)  vs  cjxl -d 1 -e 7 --num_threads=1 --num_reps=N
#   jxl-encode-lossless  vs  cjxl -d 0 -e 7
#   tiff-decode / tiff-encode  vs  pyvips and Pillow (in process)
# Both sides single-threaded. The JPEG XL and TIFF inputs are made by our encoders from a corpus
# photo (webimage-bench prepare). Prints each figure and the ratio (ours ÷ theirs: below 1 = faster).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${WEBIMAGE_CORPUS:-$(cd "$here/../.." && pwd)/shared/corpus/public}"
export WEBIMAGE_CORPUS="$corpus"
N="${N:-5}"
photo="$corpus/deb-mate-backgrounds/nature/YellowFlower.jpg"
[[ -f "$photo" ]] || { echo "corpus photo not found at $photo (set WEBIMAGE_CORPUS)"; exit 1; }

swift build -c release --package-path "$here" --product webimage-bench >&2
bench="$here/.build/release/webimage-bench"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

ours() { "$bench" "$1" "$photo" "$N" | sed -E 's/.*median_ms=([0-9.]+).*/\1/'; }
"$bench" prepare jxl-decode "$photo" "$work/photo.jxl"
"$bench" prepare tiff-decode "$photo" "$work/photo.tif"
python3 -c "from PIL import Image; Image.open('$photo').convert('RGB').save('$work/photo.ppm')" 2>/dev/null \
    || djpeg -outfile "$work/photo.ppm" "$photo"
pixels="$(python3 -c "from PIL import Image; w,h=Image.open('$photo').size; print(w*h)" 2>/dev/null || echo 0)"

mps_to_ms() { awk -v mp="$1" -v px="$pixels" 'BEGIN { if (mp > 0 && px > 0) printf "%.2f", px / (mp * 1e6) * 1000; else print "n/a" }'; }
djxl_ms() {
    command -v djxl >/dev/null || { echo "n/a"; return; }
    mps_to_ms "$(djxl "$work/photo.jxl" "$work/out.ppm" --num_threads=1 --num_reps="$N" 2>&1 | grep -oE '[0-9.]+ MP/s' | tail -1 | cut -d' ' -f1)"
}
cjxl_ms() {  # distance
    command -v cjxl >/dev/null || { echo "n/a"; return; }
    mps_to_ms "$(cjxl "$work/photo.ppm" "$work/out.jxl" -d "$1" -e 7 --num_threads=1 --num_reps="$N" 2>&1 | grep -oE '[0-9.]+ MP/s' | tail -1 | cut -d' ' -f1)"
}
python_ms() {  # library workload file
    python3 - "$1" "$2" "$3" "$N" <<'PY' 2>/dev/null || echo "n/a"
import io, sys, time, statistics
library, workload, path, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
data = open(path, "rb").read()
if library == "pyvips":
    import pyvips
    pyvips.cache_set_max(0)
    pyvips.concurrency_set(1)
    image = pyvips.Image.new_from_buffer(data, "")
    run = (lambda: pyvips.Image.new_from_buffer(data, "", access="sequential").write_to_memory()) if workload == "decode" \
        else (lambda: image.tiffsave_buffer(compression="deflate", predictor="horizontal", level=6))
else:
    from PIL import Image
    decoded = Image.open(io.BytesIO(data)); decoded.load()
    def run():
        if workload == "decode":
            im = Image.open(io.BytesIO(data)); im.load()
        else:
            decoded.save(io.BytesIO(), "TIFF", compression="tiff_adobe_deflate")
run()
samples = []
for _ in range(n):
    t = time.perf_counter(); run(); samples.append((time.perf_counter() - t) * 1000)
print(f"{statistics.median(samples):.2f}")
PY
}

printf '%-20s %10s   %-34s %10s %8s\n' workload "ours ms" anchor "anchor ms" ratio
row() {  # workload anchor ours theirs
    local ratio="n/a"
    [[ "$4" != "n/a" && -n "$4" ]] && ratio="$(awk -v a="$3" -v b="$4" 'BEGIN { printf "%.2f", a / b }')"
    printf '%-20s %10s   %-34s %10s %8s\n' "$1" "$3" "$2" "$4" "$ratio"
}
row jxl-decode "djxl --num_threads=1" "$(ours jxl-decode)" "$(djxl_ms)"
row jxl-encode "cjxl -d 1 -e 7 --num_threads=1" "$(ours jxl-encode)" "$(cjxl_ms 1)"
row jxl-encode-lossless "cjxl -d 0 -e 7 --num_threads=1" "$(ours jxl-encode-lossless)" "$(cjxl_ms 0)"
tiff_decode="$(ours tiff-decode)"
row tiff-decode "pyvips (1 thread)" "$tiff_decode" "$(python_ms pyvips decode "$work/photo.tif")"
row tiff-decode "Pillow" "$tiff_decode" "$(python_ms pillow decode "$work/photo.tif")"
tiff_encode="$(ours tiff-encode)"
row tiff-encode "pyvips tiffsave deflate" "$tiff_encode" "$(python_ms pyvips encode "$work/photo.tif")"
row tiff-encode "Pillow tiff_adobe_deflate" "$tiff_encode" "$(python_ms pillow encode "$work/photo.tif")"
