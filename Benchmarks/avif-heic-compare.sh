#!/usr/bin/env bash
# AVIF and HEIC decode and encode, WebImage beside libavif's and libheif's own tools (avifdec,
# avifenc, heif-convert, heif-enc) and libvips, on the same files, in one run, one core each
# (`taskset -c 0`; every library's thread count is 1). Prints CPU milliseconds (user + system, so
# that other load on the machine does not count) and the ratio (ours ÷ theirs: below 1 means
# WebImage is faster). N sets the iterations (default 5).
#
# The files: the corpus's 2560×1600 YellowFlower.jpg, encoded once by avifenc (quantizer 25,
# speed 6, 4:2:0) and heif-enc (-q 60) for the decode workloads. The tools' times include
# process start and writing their output: avifdec and heif-convert write a PNG (avifdec with
# --png-compress 0), vips writes its raw .v format; decode-only figures without the RGB
# conversion are also shown for avifdec (--info decodes every frame and writes nothing).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${WEBIMAGE_CORPUS:-$(cd "$here/../.." && pwd)/shared/corpus/public}"
export WEBIMAGE_CORPUS="$corpus"
N="${N:-5}"
source_jpeg="$corpus/deb-mate-backgrounds/nature/YellowFlower.jpg"
[[ -f "$source_jpeg" ]] || { echo "corpus not found at $corpus (set WEBIMAGE_CORPUS)"; exit 1; }
for tool in avifenc avifdec heif-enc heif-convert taskset python3; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: scripts/install-system-packages.sh --tools"; exit 1; }
done

swift build -c release --package-path "$here" --product webimage-bench >&2
bench="$here/.build/release/webimage-bench"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

avifenc -j 1 -s 6 --min 25 --max 25 -y 420 -r full -d 8 "$source_jpeg" "$work/ref.avif" >/dev/null
heif-enc -q 60 -o "$work/ref.heic" "$source_jpeg" >/dev/null
# The same pixels as a PNG (zlib level 1), for encoder rows whose input the tools read as RGB as
# we do: their JPEG readers hand the encoder YCbCr straight from libjpeg, skipping a conversion.
have_vips=""
command -v vips >/dev/null && vips copy "$source_jpeg" "$work/src.png[compression=1]" && have_vips=1

# CPU time (user + system) of child processes, so that other load on the machine does not count.
# The tools: median over N runs of one process each. WebImage: webimage-bench runs the workload
# N + 1 times after its preparation and one warm-up; the CPU time of a 1-iteration process is
# subtracted, and the rest divided by N.
measure() {  # ours WORKLOAD FILE | tool COMMAND... -> ms of CPU per run
    python3 - "$N" "$bench" "$@" <<'PY'
import resource, subprocess, sys, statistics
n, bench, kind, rest = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
def cpu(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
pin = ["taskset", "-c", "0"]
if kind == "ours":
    workload, path = rest
    base = cpu(pin + [bench, workload, path, "1"])
    total = cpu(pin + [bench, workload, path, str(n + 1)])
    print(f"{max(0.0, total - base) / n:.1f}")
else:
    cpu(pin + rest)  # warm-up (page cache)
    print(f"{statistics.median(cpu(pin + rest) for _ in range(n)):.1f}")
PY
}
ours() { measure ours "$1" "$2"; }
tool() { measure tool "$@"; }

row() {  # label ours theirs
    ratio=$(python3 -c "print(f'{$2 / $3:.2f}')")
    printf "%-58s %10s ms %10s ms   ratio %s\n" "$1" "$2" "$3" "$ratio"
}

printf "%-58s %13s %13s\n" "workload (2560x1600, CPU ms, one core)" "WebImage" "tool"
export VIPS_CONCURRENCY=1
avif_decode=$(ours avif-decode "$work/ref.avif")
row "AVIF decode vs avifdec -j 1 (PNG, compression 0)" "$avif_decode" \
    "$(tool avifdec -j 1 --png-compress 0 "$work/ref.avif" "$work/out.png")"
row "AVIF decode vs avifdec -j 1 --info (no RGB, no output)" "$avif_decode" \
    "$(tool avifdec -j 1 --info "$work/ref.avif")"
row "AVIF decode vs vips copy (libheif, raw .v)" "$avif_decode" \
    "$(tool vips copy "$work/ref.avif" "$work/out.v")"
row "AVIF encode (q 25, speed 6) vs avifenc -j 1 (JPEG input)" "$(ours avif-encode "$source_jpeg")" \
    "$(tool avifenc -j 1 -s 6 --min 25 --max 25 -y 420 -r full -d 8 "$source_jpeg" "$work/out.avif")"
[[ -n "$have_vips" ]] && row "AVIF encode (q 25, speed 6) vs avifenc -j 1 (PNG input)" "$(ours avif-encode "$source_jpeg")" \
    "$(tool avifenc -j 1 -s 6 --min 25 --max 25 -y 420 -r full -d 8 "$work/src.png" "$work/out.avif")"
heic_decode=$(ours heic-decode "$work/ref.heic")
row "HEIC decode vs heif-convert (PNG)" "$heic_decode" \
    "$(tool heif-convert --quiet "$work/ref.heic" "$work/out.png")"
row "HEIC decode vs heif-convert (y4m: no RGB conversion)" "$heic_decode" \
    "$(tool heif-convert --quiet "$work/ref.heic" "$work/out.y4m")"
row "HEIC decode vs vips copy (libheif, raw .v)" "$heic_decode" \
    "$(tool vips copy "$work/ref.heic" "$work/out.v")"
row "HEIC encode (q 60) vs heif-enc -q 60 (JPEG input)" "$(ours heic-encode "$source_jpeg")" \
    "$(tool heif-enc -q 60 -o "$work/out.heic" "$source_jpeg")"
[[ -n "$have_vips" ]] && row "HEIC encode (q 60) vs heif-enc -q 60 (PNG input)" "$(ours heic-encode "$source_jpeg")" \
    "$(tool heif-enc -q 60 -o "$work/out.heic" "$work/src.png")"
true
