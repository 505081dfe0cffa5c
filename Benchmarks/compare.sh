#!/usr/bin/env bash
# Runs WebImage's codec workloads beside the tools users would otherwise pick — libjpeg-turbo's
# tjbench, Pillow, pyvips and vipsthumbnail — on the same files, in one run, and prints each figure
# and the ratio (ours ÷ theirs: below 1 means WebImage is faster). Anchors that are not installed
# are skipped with a note. N sets the iterations (default 10).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${WEBIMAGE_CORPUS:-$(cd "$here/../.." && pwd)/shared/corpus/public}"
export WEBIMAGE_CORPUS="$corpus"
N="${N:-10}"
[[ -f "$corpus/manifest.json" ]] || { echo "corpus not found at $corpus (set WEBIMAGE_CORPUS)"; exit 1; }

swift build -c release --package-path "$here" --product webimage-bench >&2
swift build -c release --static-swift-stdlib --package-path "$here/.." --product webimage >&2
bench="$here/.build/release/webimage-bench"
cli="$here/../.build/release/webimage"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

file_for() {  # the corpus file a workload uses, as compiled into webimage-bench
    case "$1" in
        jpeg-*) echo "$corpus/deb-lomiri-wallpapers-16.04/seeding_by_Clements_Engelhardt.jpg" ;;
        png-*) echo "$corpus/image-png/benches/Fantasy_Digital_Painting.png" ;;
        webp-decode) echo "$corpus/deb-gnome-backgrounds/adwaita-l.webp" ;;
        webp-encode) echo "$corpus/deb-mate-backgrounds/nature/YellowFlower.jpg" ;;
    esac
}

ours() { "$bench" "$1" "$(file_for "$1")" "$N" | sed -E 's/.*median_ms=([0-9.]+).*/\1/'; }

pillow() {  # workload file -> median ms with Pillow (or pyvips with a pyvips- prefix)
    python3 - "$1" "$2" "$N" <<'PY' 2>/dev/null || echo "n/a"
import io, sys, time, statistics
workload, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(path, "rb").read()
if workload.startswith("pyvips-"):
    import pyvips
    pyvips.cache_set_max(0)
    def run():
        if workload == "pyvips-thumbnail":
            pyvips.Image.thumbnail_buffer(data, 256).write_to_memory()
        else:
            pyvips.Image.new_from_buffer(data, "", access="sequential").write_to_memory()
else:
    from PIL import Image
    decoded = Image.open(io.BytesIO(data)); decoded.load()
    def run():
        if workload in ("jpeg-decode", "jpeg-decode-pooled", "png-decode", "webp-decode"):
            im = Image.open(io.BytesIO(data)); im.load()
        elif workload == "jpeg-thumbnail":
            im = Image.open(io.BytesIO(data)); im.draft("RGB", (256, 256)); im.thumbnail((256, 256))
        elif workload == "png-encode":
            decoded.save(io.BytesIO(), "PNG", compress_level=6)
        elif workload == "webp-encode":
            decoded.save(io.BytesIO(), "WEBP", quality=80)
run()
samples = []
for _ in range(n):
    t = time.perf_counter(); run(); samples.append((time.perf_counter() - t) * 1000)
print(f"{statistics.median(samples):.2f}")
PY
}

tjbench_ms() {  # file scale -> ms per decompression from tjbench's Mpixels/s
    command -v tjbench >/dev/null || { echo "n/a"; return; }
    local out mp
    out="$(cd "$work" && tjbench "$1" -rgbx -nowrite -quiet -benchtime 2 -warmup 0.5 ${2:+-scale $2} 2>/dev/null | awk 'NF>=9 && $1=="RGBX" {print $5, $6, $NF}' | tail -1)"
    [[ -n "$out" ]] || { echo "n/a"; return; }
    read -r w h mp <<<"$out"
    awk -v w="$w" -v h="$h" -v mp="$mp" 'BEGIN { printf "%.2f", w * h / (mp * 1e6) * 1000 }'
}

process_ms() {  # command... -> median wall ms over N runs (whole process)
    python3 - "$N" "$@" <<'PY'
import subprocess, sys, time, statistics
n, cmd = int(sys.argv[1]), sys.argv[2:]
subprocess.run(cmd, check=True, capture_output=True)
samples = []
for _ in range(n):
    t = time.perf_counter(); subprocess.run(cmd, check=True, capture_output=True); samples.append((time.perf_counter() - t) * 1000)
print(f"{statistics.median(samples):.2f}")
PY
}

printf '%-16s %-34s %10s   %-26s %10s %8s\n' workload file "ours ms" anchor "anchor ms" ratio
row() {  # workload anchor ours theirs
    local ratio="n/a"
    [[ "$4" != "n/a" && -n "$4" ]] && ratio="$(awk -v a="$3" -v b="$4" 'BEGIN { printf "%.2f", a / b }')"
    printf '%-16s %-34s %10s   %-26s %10s %8s\n' "$1" "$(basename "$(file_for "$1")" | cut -c1-34)" "$3" "$2" "$4" "$ratio"
}

for w in jpeg-decode jpeg-decode-pooled jpeg-thumbnail png-decode png-encode webp-decode webp-encode; do
    mine="$(ours "$w")"
    row "$w" "Pillow $(python3 -c 'import PIL; print(PIL.__version__)' 2>/dev/null || echo '')" "$mine" "$(pillow "$w" "$(file_for "$w")")"
    case "$w" in
        jpeg-decode | jpeg-decode-pooled)
            row "$w" "tjbench (libjpeg-turbo)" "$mine" "$(tjbench_ms "$(file_for "$w")")"
            row "$w" "pyvips" "$mine" "$(pillow pyvips-decode "$(file_for "$w")")" ;;
        jpeg-thumbnail)
            row "$w" "tjbench -scale 1/8 (no resize)" "$mine" "$(tjbench_ms "$(file_for "$w")" 1/8)"
            row "$w" "pyvips thumbnail" "$mine" "$(pillow pyvips-thumbnail "$(file_for "$w")")" ;;
    esac
done

# Whole-process thumbnails: our CLI beside vipsthumbnail, same file, same 256 px box, JPEG out.
if command -v vipsthumbnail >/dev/null; then
    f="$(file_for jpeg-thumbnail)"
    mine="$(process_ms "$cli" convert "$f" "$work/ours.jpg" --thumbnail 256)"
    theirs="$(process_ms vipsthumbnail "$f" -s 256 -o "$work/vips.jpg")"
    row "cli-thumbnail" "vipsthumbnail (process)" "$mine" "$theirs"
else
    echo "vipsthumbnail not installed: skipped (apt-get install libvips-tools)"
fi
