#!/usr/bin/env bash
# Times WebImage's pixel transformers on one thread beside Pillow (ImageFilter.GaussianBlur,
# rotate, ImageOps) and pyvips (gaussblur, rotate, colourspace) on generated 12 MP images (the
# content does not change these kernels' cost), and prints megapixels per second and the ratio (ours ÷ theirs in speed: above 1 means
# WebImage is faster). Anchors that are not installed are skipped. N sets the iterations (default 5).
#
# PILLOW_SIMD_PYTHON names a Python with pillow-simd to add it as a third anchor.
#
# Pillow and pyvips are asked for the same work: a Gaussian of the same σ (Pillow's GaussianBlur
# radius is its σ; vips gaussblur takes σ), a 17° bilinear rotation with an expanded canvas, a
# Rec. 709-style greyscale. libvips runs with VIPS_CONCURRENCY=1 (one thread, like ours). Pillow
# works on 3-channel RGB here, WebImage on RGBA (a third more bytes).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
N="${N:-5}"
SIZE="${SIZE:-4000x3000}"
swift build -c release --package-path "$here" --product webimage-transform-bench >&2
bench="$here/.build/release/webimage-transform-bench"

declare -A ours
while read -r name median mpx; do ours[$name]="${mpx#mpx_per_s=}"; done < <("$bench" "$SIZE" "$N")

anchors() {  # prints "workload tool mpx_per_s" lines; $1: the Python, $2: Pillow's label, $3: "all" or "pillow"
    VIPS_CONCURRENCY=1 "$1" - "$SIZE" "$N" "$2" "$3" <<'PY' || true
import sys, time, statistics
w, h = map(int, sys.argv[1].split("x")); n = int(sys.argv[2])
pillow_label, which = sys.argv[3], sys.argv[4]
def timed(tool, name, run):
    run()
    samples = []
    for _ in range(n):
        t = time.perf_counter(); run(); samples.append(time.perf_counter() - t)
    print(f"{name} {tool} {w * h / 1e6 / statistics.median(samples):.1f}", flush=True)
try:
    from PIL import Image, ImageFilter, ImageOps
    import random
    im = Image.effect_noise((w, h), 40).convert("RGB")
    timed(pillow_label, "blur-sigma10", lambda: im.filter(ImageFilter.GaussianBlur(10)))
    timed(pillow_label, "blur-sigma2", lambda: im.filter(ImageFilter.GaussianBlur(2)))
    timed(pillow_label, "sharpen", lambda: im.filter(ImageFilter.UnsharpMask(1, 100, 0)))
    timed(pillow_label, "rotate-90", lambda: im.transpose(Image.Transpose.ROTATE_270))
    timed(pillow_label, "rotate-17", lambda: im.rotate(-17, Image.Resampling.BILINEAR, expand=True))
    timed(pillow_label, "flip-h", lambda: im.transpose(Image.Transpose.FLIP_LEFT_RIGHT))
    timed(pillow_label, "grayscale", lambda: ImageOps.grayscale(im))
except ImportError:
    print("# Pillow not installed", file=sys.stderr)
try:
    if which != "all": raise ImportError
    import pyvips
    pyvips.cache_set_max(0)
    v = pyvips.Image.gaussnoise(w, h, mean=128, sigma=40).cast("uchar").bandjoin([pyvips.Image.gaussnoise(w, h).cast("uchar")] * 2)
    v = v.copy(interpretation="srgb").copy_memory()
    timed("libvips", "blur-sigma10", lambda: v.gaussblur(10).write_to_memory())
    timed("libvips", "blur-sigma2", lambda: v.gaussblur(2).write_to_memory())
    timed("libvips", "sharpen", lambda: v.sharpen(sigma=1).write_to_memory())
    timed("libvips", "rotate-90", lambda: v.rot90().write_to_memory())
    timed("libvips", "rotate-17", lambda: v.rotate(17, interpolate=pyvips.Interpolate.new("bilinear")).write_to_memory())
    timed("libvips", "flip-h", lambda: v.fliphor().write_to_memory())
    timed("libvips", "grayscale", lambda: v.colourspace("b-w").write_to_memory())
except ImportError:
    if which == "all": print("# pyvips not installed", file=sys.stderr)
PY
}

printf "%-16s %12s %10s %12s %8s\n" workload "ours Mpx/s" tool "their Mpx/s" ratio
while read -r name tool theirs; do
    [[ -n "${ours[$name]:-}" ]] || continue
    ratio=$(python3 -c "print(f'{${ours[$name]} / $theirs:.2f}')")
    printf "%-16s %12s %10s %12s %8s\n" "$name" "${ours[$name]}" "$tool" "$theirs" "$ratio"
done < <(anchors python3 pillow all; [[ -n "${PILLOW_SIMD_PYTHON:-}" ]] && anchors "$PILLOW_SIMD_PYTHON" pillow-simd pillow)
for name in "${!ours[@]}"; do echo "ours only: $name ${ours[$name]} Mpx/s"; done | sort
