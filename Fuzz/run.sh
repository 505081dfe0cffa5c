#!/usr/bin/env bash
# Builds the libFuzzer targets with -sanitize=fuzzer,address and runs each for a given time.
#
#   Fuzz/run.sh [SECONDS] [TARGET...]     fuzz each TARGET (default: all) for SECONDS (default 60)
#   Fuzz/run.sh seeds                     regenerate Fuzz/Seeds/<target>/ with our own encoders
#   Fuzz/run.sh list                      print the targets
#
# Environment:
#   FUZZ_JOBS=N          targets fuzzed at once (default 1; the machine may be shared)
#   FUZZ_EXTRA_SEEDS=DIR extra read-only seed directories, colon-separated (read in place, never copied)
#   FUZZ_CONFIG=debug    build and run the debug configuration (default release: optimized Swift
#                        keeps its bounds and overflow checks and runs 10-25x faster under ASan)
#   FUZZ_NO_BUILD=1      use the binaries already built
#   FUZZ_TIMEOUT=S       seconds one input may take before it counts as a hang (default 10; wall
#                        clock, so on a busy machine a slow-but-finite input can reach it)
#   FUZZ_STOP_ON_FINDING=1  stop a target at its first finding (default: keep going, libFuzzer's
#                        fork mode with -ignore_crashes/-ignore_ooms/-ignore_timeouts)
#   FUZZ_ARGS="..."      more libFuzzer options (e.g. "-dict=...")
#
# The growing corpus is kept in Fuzz/.corpus/<target>/ (so a later run continues where this one
# stopped), crash/oom/timeout inputs in Fuzz/.artifacts/<target>/, logs in Fuzz/.logs/.
set -euo pipefail

FUZZ_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ALL_TARGETS=(jpeg png gif gif-lzw-differential jpeg-scan-skip-differential webp avif heif jxl tiff svg pnm coders data-url icc metadata)
cd "$FUZZ_DIR"

build() {
    [[ "${FUZZ_NO_BUILD:-}" == 1 ]] && return
    echo "run.sh: building the fuzz targets ($CONFIG, -sanitize=fuzzer,address)…" >&2
    nice -n 19 swift build -c "$CONFIG" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
        -Xcc -fsanitize=fuzzer-no-link,address >&2
    # SVGCoder renders in a webimage-svg-render process (a librsvg panic must cost that process
    # only): the main package's, uninstrumented like librsvg itself.
    nice -n 19 swift build --package-path "$FUZZ_DIR/.." -c "$CONFIG" --product webimage-svg-render >&2
}
export WEBIMAGE_SVG_RENDERER="$FUZZ_DIR/../.build/${FUZZ_CONFIG:-release}/webimage-svg-render"

CONFIG="${FUZZ_CONFIG:-release}"
binary() { echo "$FUZZ_DIR/.build/$CONFIG/fuzz-$1"; }

# The largest input each target is given: images need room for headers, palettes and a few
# frames; a data: URL parser needs little.
max_len() { [[ "$1" == data-url ]] && echo 4096 || echo 65536; }

check_target() {
    local name
    for name in "${ALL_TARGETS[@]}"; do [[ "$name" == "$1" ]] && return; done
    echo "run.sh: unknown target '$1' (targets: ${ALL_TARGETS[*]})" >&2
    exit 2
}

# Runs one target for $1 seconds; prints a one-line summary at the end.
fuzz_one() {
    local seconds="$1" target="$2"
    local corpus="$FUZZ_DIR/.corpus/$target" artifacts="$FUZZ_DIR/.artifacts/$target"
    local log="$FUZZ_DIR/.logs/$target-$(date -u +%Y%m%dT%H%M%SZ).log"
    mkdir -p "$corpus" "$artifacts" "$FUZZ_DIR/.logs"
    local seeds=("$corpus" "$FUZZ_DIR/Seeds/$target")
    [[ -d "$FUZZ_DIR/Regressions/$target" ]] && seeds+=("$FUZZ_DIR/Regressions/$target")
    if [[ -n "${FUZZ_EXTRA_SEEDS:-}" ]]; then
        local extra
        IFS=: read -r -a extra <<<"$FUZZ_EXTRA_SEEDS"
        seeds+=("${extra[@]}")
    fi
    # The Swift runtime's backtracer and ASan both want the crash signal; let ASan report.
    # LeakSanitizer is off: it reports the Swift runtime's lazily made globals as leaks.
    local mode=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
    [[ "${FUZZ_STOP_ON_FINDING:-}" == 1 ]] && mode=()
    # shellcheck disable=SC2086
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=0}" \
        nice -n 19 "$(binary "$target")" "${seeds[@]}" \
        -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout="${FUZZ_TIMEOUT:-10}" \
        -max_len="$(max_len "$target")" -artifact_prefix="$artifacts/" -print_final_stats=1 \
        "${mode[@]}" ${FUZZ_ARGS:-} >"$log" 2>&1 || true
    # Executions: fork mode's last "#N: cov: …" line, or the final stats of a single process.
    local execs cov found
    execs=$(grep -oE '^#[0-9]+: cov' "$log" | tail -1 | tr -dc '0-9')
    [[ -z "$execs" ]] && execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
    found=$(grep -oE 'oom/timeout/crash: [0-9]+/[0-9]+/[0-9]+' "$log" | tail -1)
    [[ -z "$found" ]] && found="$(grep -c 'Test unit written to' "$log" || true) stopped at the first"
    printf '%-9s %ss  execs %-8s %-20s corpus %-5s findings %s  (%s)\n' "$target" "$seconds" "${execs:-?}" \
        "${cov:-cov: ?}" "$(find "$corpus" -type f | wc -l)" "$found" "$(basename "$log")"
    grep -hE '(==[0-9]+==ERROR|SUMMARY: |Fatal error|contract violation|Test unit written)' "$log" | sort -u | head -8 \
        | sed 's/^/    /' || true
    ls "$artifacts" | sed "s|^|    $target: |" || true
}

case "${1:-}" in
list)
    printf '%s\n' "${ALL_TARGETS[@]}"
    exit 0
    ;;
seeds)
    build
    for target in "${ALL_TARGETS[@]}"; do
        rm -rf "${FUZZ_DIR:?}/Seeds/$target"
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$(binary "$target")" --write-seeds "$FUZZ_DIR/Seeds/$target"
    done
    exit 0
    ;;
esac

SECONDS_EACH=60
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    SECONDS_EACH="$1"
    shift
fi
TARGETS=("$@")
[[ ${#TARGETS[@]} -eq 0 ]] && TARGETS=("${ALL_TARGETS[@]}")
for target in "${TARGETS[@]}"; do check_target "$target"; done

build
JOBS="${FUZZ_JOBS:-1}"
echo "run.sh: ${#TARGETS[@]} target(s), ${SECONDS_EACH}s each, $JOBS at a time ($(date -u +%Y-%m-%dT%H:%MZ))" >&2
running=0
for target in "${TARGETS[@]}"; do
    fuzz_one "$SECONDS_EACH" "$target" &
    running=$((running + 1))
    if ((running >= JOBS)); then
        wait -n || true
        running=$((running - 1))
    fi
done
wait || true
echo "run.sh: done. Findings are in $FUZZ_DIR/.artifacts/<target>/; see README.md to keep one as a regression input." >&2
