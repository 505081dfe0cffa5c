#!/usr/bin/env bash
# The pixel kernels (issue 14) beside Pillow, pillow-simd (when a venv holding it is given in
# $PILLOW_SIMD_PYTHON) and libvips, same files, same run, one thread each side
# (VIPS_CONCURRENCY=1; Pillow is single-threaded). Prints each figure and ratio (ours ÷ theirs in
# throughput: above 1 means WebImage is faster). N sets the iterations (default 5).
#   resample: Lanczos3 to a quarter of each side of a 24 MP photo-like image (6000×4000), already
#     decoded; ours as one exact pass (as Pillow's resize) and with the default reducing gap 2
#     (as vips_resize's default gap 2). libvips runs vips_reduce with its Lanczos3 kernel (the
#     exact separable pass, as ours) and vips_resize (what vips_thumbnail calls; on libvips 8.14
#     it takes seconds on this in-memory image, so it is printed for the record, not compared).
#   Ours runs on each kernel path this CPU has (WEBIMAGE_SIMD=portable|avx2|avx512, issue 29), and
#   Pillow and pillow-simd also with reducing_gap=2, so the gap's gain can be set beside theirs.
#   The load average is printed first: other work on the machine slows every figure.
#   blur: a Gaussian of σ 10 and σ 2 on the same decoded 24 MP image, ours (GaussianBlurTransformer,
#     RGBA) on each kernel path beside Pillow's and pillow-simd's GaussianBlur of the same radius
#     (their radius is σ; RGB, as the JPEG decodes).
#   png-thumbnail: PNG → 256 px box (decode included): ours, Pillow's thumbnail (reducing_gap 2),
#     vips thumbnail_buffer.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${WEBIMAGE_CORPUS:-$(cd "$here/../.." && pwd)/shared/corpus/public}"
# Process CPU time, ours and theirs (BENCH_CLOCK=cpu; Python's process_time): steadier than wall
# time while other work shares the cores.
export WEBIMAGE_CORPUS="$corpus" VIPS_CONCURRENCY=1 BENCH_CLOCK=cpu
N="${N:-5}"
swift build -c release --package-path "$here" --product webimage-bench >&2
bench="$here/.build/release/webimage-bench"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
photo="$work/photo24.jpg"
"$bench" make-jpeg 6000x4000 "$photo"
png="$corpus/image-png/benches/Fantasy_Digital_Painting.png"

ours() { "$bench" "$1" "$2" "$N" | sed -E 's/.*median_ms=([0-9.]+).*/\1/'; }
paths=$("$bench" kernel-paths)  # the paths this CPU runs, best last

anchor() {  # python workload file -> median ms
    "$1" - "$2" "$3" "$N" <<'PY' 2>/dev/null || echo "n/a"
import io, sys, time, statistics
workload, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(path, "rb").read()
if workload.startswith("vips-"):
    import pyvips
    pyvips.cache_set_max(0)
    if workload in ("vips-reduce", "vips-resize"):
        image = pyvips.Image.new_from_buffer(data, "").copy_memory()
        if workload == "vips-reduce":
            run = lambda: image.reduce(4, 4, kernel="lanczos3").write_to_memory()
        else:
            run = lambda: image.resize(0.25, kernel="lanczos3").write_to_memory()
    else:
        run = lambda: pyvips.Image.thumbnail_buffer(data, 256).write_to_memory()
else:
    from PIL import Image, ImageFilter
    image = Image.open(io.BytesIO(data)); image.load()
    if workload.startswith("pil-blur-sigma"):
        run = lambda: image.filter(ImageFilter.GaussianBlur(float(workload.removeprefix("pil-blur-sigma"))))
    elif workload == "pil-resample":
        run = lambda: image.resize((image.width // 4, image.height // 4), Image.LANCZOS)
    elif workload == "pil-resample-gap":
        run = lambda: image.resize((image.width // 4, image.height // 4), Image.LANCZOS, reducing_gap=2.0)
    else:
        def run():
            im = Image.open(io.BytesIO(data)); im.thumbnail((256, 256), Image.LANCZOS)
run()
samples = []
for _ in range(n):
    t = time.process_time(); run(); samples.append((time.process_time() - t) * 1000)
print(f"{statistics.median(samples):.2f}")
PY
}

ratio() { [[ "$2" == n/a ]] && echo "n/a" || awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f×", b / a }'; }
mpx() { awk -v ms="$1" 'BEGIN { printf "%.0f Mpx/s", 24 / (ms / 1000) }'; }

simd="${PILLOW_SIMD_PYTHON:-}"
gain() { [[ "$2" == n/a ]] && echo "n/a" || awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f %%", (a / b - 1) * 100 }'; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
pil=$(anchor python3 pil-resample "$photo"); pilgap=$(anchor python3 pil-resample-gap "$photo")
vips=$(anchor python3 vips-reduce "$photo"); vipsresize=$(anchor python3 vips-resize "$photo")
pilsimd=n/a; pilsimdgap=n/a
[[ -n "$simd" ]] && pilsimd=$(anchor "$simd" pil-resample "$photo") && pilsimdgap=$(anchor "$simd" pil-resample-gap "$photo")
echo "resample 24 MP → 1/4 per side, Lanczos3, 1 thread (median ms; ratio = our speed ÷ theirs)"
for path in $paths; do
    exact=$(WEBIMAGE_SIMD=$path ours resample-lanczos "$photo"); gapped=$(WEBIMAGE_SIMD=$path ours resample-lanczos-gap "$photo")
    echo "  ours $path exact  $exact ms  $(mpx "$exact")  vs Pillow $(ratio "$exact" "$pil")  pillow-simd $(ratio "$exact" "$pilsimd")  libvips reduce $(ratio "$exact" "$vips")"
    echo "  ours $path gap 2  $gapped ms  $(mpx "$gapped")  gap gain $(gain "$exact" "$gapped")  vs pillow-simd gap 2 $(ratio "$gapped" "$pilsimdgap")"
done
echo "  Pillow          $pil ms  gap 2 $pilgap ms (gain $(gain "$pil" "$pilgap"))"
echo "  pillow-simd     $pilsimd ms  $(mpx "$pilsimd")  gap 2 $pilsimdgap ms (gain $(gain "$pilsimd" "$pilsimdgap"))"
echo "  libvips reduce  $vips ms  $(mpx "$vips")"
echo "  libvips resize  $vipsresize ms   (vips_resize, for the record)"

echo "Gaussian blur of the same 24 MP image, 1 thread (median ms; ratio = our speed ÷ theirs)"
for sigma in 10 2; do
    pilblur=$(anchor python3 "pil-blur-sigma$sigma" "$photo")
    simdblur=n/a
    [[ -n "$simd" ]] && simdblur=$(anchor "$simd" "pil-blur-sigma$sigma" "$photo")
    for path in $paths; do
        blur=$(WEBIMAGE_SIMD=$path ours "blur-sigma$sigma" "$photo")
        echo "  ours $path σ $sigma  $blur ms  $(mpx "$blur")  vs pillow-simd $(ratio "$blur" "$simdblur")  Pillow $(ratio "$blur" "$pilblur")"
    done
    echo "  pillow-simd σ $sigma  $simdblur ms  Pillow $pilblur ms"
done

thumb=$(ours png-thumbnail "$png")
pilthumb=$(anchor python3 pil-thumbnail "$png"); vipsthumb=$(anchor python3 vips-thumbnail "$png")
echo "png-thumbnail $(basename "$png") → 256 px (median ms)"
echo "  ours $thumb  Pillow $pilthumb ($(ratio "$thumb" "$pilthumb"))  libvips $vipsthumb ($(ratio "$thumb" "$vipsthumb"))"
