#!/usr/bin/env bash
# The image service benchmark (issue 16): 256 px JPEG thumbnails (quality 80) of real photos,
# served by `webimage serve` and by thumbor 7.8, measured with wrk on loopback
# (`wrk -t2 -c16 --latency --timeout 60s`), one run each:
#   cached: the same few URLs over and over (each service's result cache answers), after a warm-up;
#   cold:   every request a new source URL (`/cold/<run>-<thread>-<n>/<photo>`, which the origin
#           serves as `/<photo>`), so neither the source nor the result can come from any cache.
# The origin is a small threaded Python file server on 127.0.0.1 and a free port, serving the
# corpus's photos in place (WEBIMAGE_CORPUS, default /work/shared/corpus/public), or photo-like
# JPEGs made by webimage-bench when there is no corpus. Prints requests/s and p99 for each
# service and mode, the service's CPU time per request (user + system, from /proc: unlike
# requests/s it barely depends on what else the machine runs), and our ratios (issue 28's goal:
# >= 10x thumbor cached, >= 4x cold, with presets and watermarks on).
#
# By default every thumbnail carries a watermark (a 25 %-wide PNG with alpha, at 50 % opacity, in
# the bottom-right corner): thumbor's `watermark` filter loads it from the origin, webimage serve
# takes it from `--watermark FILE` through a preset (`pr:thumb`, defined with `--preset`). With
# --plain, neither has a watermark and webimage uses its options inline (issue 16's runs).
# It also times vipsthumbnail making the same thumbnails, one process per round, and prints its CPU
# per image beside the services' cold CPU per request (issue 29's bar).
#
#   Benchmarks/serve-compare.sh [--install-thumbor] [--no-thumbor] [--no-webimage] [--plain]
#
# thumbor runs from the venv Benchmarks/.build/thumbor-venv (THUMBOR_VENV), which
# --install-thumbor makes with pip (`thumbor==7.8.0`); without it thumbor is skipped with a note.
# imgproxy is not measured: it ships no Debian or PyPI package, only Go source and container images.
# DURATION (default 10) and COLD_DURATION (default 20) are seconds per wrk run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
install_thumbor=0 run_thumbor=1 run_webimage=1 watermarks=1
for argument in "$@"; do
    case "$argument" in
    --install-thumbor) install_thumbor=1 ;;
    --no-thumbor) run_thumbor=0 ;;
    --no-webimage) run_webimage=0 ;;
    --plain) watermarks=0 ;;
    *) echo "usage: $0 [--install-thumbor] [--no-thumbor] [--no-webimage] [--plain]" >&2; exit 2 ;;
    esac
done
duration="${DURATION:-10}"
cold_duration="${COLD_DURATION:-20}"
venv="${THUMBOR_VENV:-$here/.build/thumbor-venv}"
corpus="${WEBIMAGE_CORPUS:-/work/shared/corpus/public}"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }

work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Waits until `url` answers 2xx (a service starting up), for at most 60 s.
wait_for() {
    for _ in $(seq 1 600); do
        curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "no answer from $1" >&2
    return 1
}

# MARK: the photos and the origin

mkdir -p "$work/origin"
photos=()
for photo in deb-lomiri-wallpapers-16.04/Bridge_by_Sander_Klootwijk.jpg deb-lomiri-wallpapers-16.04/Dragonfly_by_Bolly.jpg \
    deb-lomiri-wallpapers-16.04/seeding_by_Clements_Engelhardt.jpg deb-lomiri-wallpapers-16.04/sunset_by_Aitzol_Berasategi.jpg \
    deb-lomiri-wallpapers-16.04/Wine_by_Jakkub_Mede.jpg deb-mate-backgrounds/nature/YellowFlower.jpg; do
    [[ -f "$corpus/$photo" ]] || continue
    name="$(basename "$photo")"
    ln -s "$corpus/$photo" "$work/origin/$name"
    photos+=("$name")
done
if ((${#photos[@]} == 0)); then
    echo "no corpus at $corpus: generating photo-like JPEGs instead" >&2
    swift build -c release --package-path "$here" --product webimage-bench >&2
    for size in 4352x2448 4224x3168 5312x2988 2560x3837; do
        "$here/.build/release/webimage-bench" make-jpeg "$size" "$work/origin/generated-$size.jpg"
        photos+=("generated-$size.jpg")
    done
fi

# The watermark: 200×80, a translucent white plate with a dark bar, with alpha.
python3 - "$work/origin/watermark.png" <<'PY'
import sys
from PIL import Image, ImageDraw
mark = Image.new("RGBA", (200, 80), (255, 255, 255, 0))
draw = ImageDraw.Draw(mark)
draw.rounded_rectangle((0, 0, 199, 79), radius=12, fill=(255, 255, 255, 160))
draw.rectangle((20, 30, 179, 49), fill=(20, 20, 20, 230))
mark.save(sys.argv[1])
PY

# A threaded file server: `/cold/<anything>/<name>` serves `<name>`, so every cold URL is new.
cat >"$work/origin.py" <<'PYTHON'
import http.server, os, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def translate_path(self, path):
        parts = path.split("?", 1)[0].split("/")
        return os.path.join(sys.argv[2], parts[-1])
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer.daemon_threads = True
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PYTHON
origin_port="$(free_port)"
python3 "$work/origin.py" "$origin_port" "$work/origin" &
pids+=($!)
origin="127.0.0.1:$origin_port"
wait_for "http://$origin/${photos[0]}"
echo "origin http://$origin: ${#photos[@]} photos ($(cd "$work/origin" && du -chL "${photos[@]}" | tail -1 | cut -f1) in all)"
for name in "${photos[@]}"; do
    python3 -c "from PIL import Image; import sys; i = Image.open(sys.argv[1]); print(f'  {sys.argv[2]}: {i.width}x{i.height}')" \
        "$work/origin/$name" "$name" 2>/dev/null || echo "  $name"
done

# MARK: wrk

# A wrk script for one service and mode. `prefix` goes before the source URL; `style` is `bare`
# (127.0.0.1:port/path, thumbor's form) or `encoded` (http://… percent-encoded, after `/plain/`).
write_script() {
    local file="$1" prefix="$2" style="$3" mode="$4"
    {
        printf 'local photos = {'
        printf '"%s", ' "${photos[@]}"
        printf '}\n'
        printf 'local prefix, style, mode, origin, run = "%s", "%s", "%s", "%s", "%s"\n' \
            "$prefix" "$style" "$mode" "$origin" "$(date +%s%N)"
        cat <<'LUA'
local threads, counter = 0, 0
function setup(thread)
    threads = threads + 1
    thread:set("tid", threads)
end
function request()
    counter = counter + 1
    local photo = photos[counter % #photos + 1]
    local path = "/" .. photo
    if mode == "cold" then path = "/cold/" .. run .. "-" .. tid .. "-" .. counter .. path end
    local source = origin .. path
    if style == "encoded" then
        source = ("http://" .. source):gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", c:byte()) end)
    end
    return wrk.format("GET", prefix .. source)
end
function done(summary, latency, requests)
    local errors = summary.errors
    io.write(string.format("RESULT %.1f %.1f %.1f %d %d %d\n", summary.requests / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        errors.connect + errors.read + errors.write + errors.timeout, errors.status, summary.requests))
end
LUA
    } >"$file"
}

# CPU time (user + system) process `pid` has used, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# Runs wrk against `base` (served by process `pid`) and prints "req/s p50 p99 errors non-2xx
# cpu-ms-per-request" (latencies in ms).
measure() {
    local base="$1" prefix="$2" style="$3" mode="$4" seconds="$5" pid="$6" before after result
    write_script "$work/$mode.lua" "$prefix" "$style" "$mode"
    before="$(cpu_ticks "$pid")"
    result="$(wrk -t2 -c16 -d"${seconds}s" --latency --timeout 60s -s "$work/$mode.lua" "$base" | grep '^RESULT' | cut -d' ' -f2-)"
    after="$(cpu_ticks "$pid")"
    read -r rps p50 p99 errors status requests <<<"$result"
    echo "$rps $p50 $p99 $errors $status $(python3 -c 'import sys; print(f"{(int(sys.argv[2]) - int(sys.argv[1])) * 1000 / int(sys.argv[3]) / max(int(sys.argv[4]), 1):.2f}")' \
        "$before" "$after" "$(getconf CLK_TCK)" "$requests")"
}

# The URL of the cached thumbnail of `photo` (the same the wrk script asks for).
cached_url() {
    local base="$1" prefix="$2" style="$3" photo="$4" source="$origin/$4"
    if [[ "$style" == encoded ]]; then
        source="$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe="-._~"))' "http://$source")"
    fi
    echo "$base$prefix$source"
}

declare -A figures
# Measures one service: checks one thumbnail, warms its caches, then runs cached and cold.
bench_service() {
    local name="$1" base="$2" prefix="$3" style="$4" pid="$5"
    local url
    echo "$name: load average before $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
    url="$(cached_url "$base" "$prefix" "$style" "${photos[0]}")"
    curl -fsS -o "$work/$name-check.img" "$url" || { echo "$name: $url failed" >&2; return 1; }
    python3 -c "from PIL import Image; import sys; i = Image.open(sys.argv[1]); print(f'{sys.argv[2]}: {i.format} {i.width}x{i.height}, {sys.argv[3]} bytes')" \
        "$work/$name-check.img" "$name" "$(stat -c %s "$work/$name-check.img")" 2>/dev/null || true
    for _ in 1 2; do
        for photo in "${photos[@]}"; do curl -fsS -o /dev/null "$(cached_url "$base" "$prefix" "$style" "$photo")"; done
    done
    figures["$name cached"]="$(measure "$base" "$prefix" "$style" cached "$duration" "$pid")"
    echo "$name cached: ${figures["$name cached"]}"
    figures["$name cold"]="$(measure "$base" "$prefix" "$style" cold "$cold_duration" "$pid")"
    echo "$name cold:   ${figures["$name cold"]}"
}

# MARK: thumbor

if ((run_thumbor)); then
    if ((install_thumbor)) && [[ ! -x "$venv/bin/thumbor" ]]; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet 'thumbor==7.8.0'
    fi
    if [[ -x "$venv/bin/thumbor" ]]; then
        cat >"$work/thumbor.conf" <<CONF
ALLOW_UNSAFE_URL = True
QUALITY = 80
STORAGE = 'thumbor.storages.file_storage'
FILE_STORAGE_ROOT_PATH = '$work/thumbor-storage'
RESULT_STORAGE = 'thumbor.result_storages.file_storage'
RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = '$work/thumbor-results'
RESULT_STORAGE_STORES_UNSAFE = True
HTTP_LOADER_CONNECT_TIMEOUT = 60
HTTP_LOADER_REQUEST_TIMEOUT = 60
CONF
        port="$(free_port)"
        "$venv/bin/thumbor" --port "$port" --ip 127.0.0.1 --conf "$work/thumbor.conf" --log-level error &
        thumbor_pid=$!
        pids+=("$thumbor_pid")
        wait_for "http://127.0.0.1:$port/healthcheck"
        echo "thumbor $("$venv/bin/python" -c 'import thumbor; print(thumbor.__version__)') (one process, PIL engine, file result storage)"
        thumbor_options="/unsafe/256x0/"
        if ((watermarks)); then
            # watermark(image, x, y, transparency %, width % of the image): bottom right, 10 px in.
            thumbor_options="/unsafe/256x0/filters:watermark($origin/watermark.png,-10,-10,50,25)/"
        fi
        bench_service thumbor "http://127.0.0.1:$port" "$thumbor_options" bare "$thumbor_pid"
        kill "$thumbor_pid"
    else
        echo "thumbor: skipped (no venv at $venv; run with --install-thumbor)"
    fi
fi

# MARK: webimage serve

if ((run_webimage)); then
    swift build -c release --static-swift-stdlib --package-path "$root" --product webimage >&2
    cli="$root/.build/release/webimage"
    if "$cli" serve --help >/dev/null 2>&1; then
        port="$(free_port)"
        extra=() options="/unsafe/rs:fit:256:0/q:80/plain/"
        if ((watermarks)); then
            # The same mark: 50 % opacity, south-east, 10 px in, 25 % of the result's width.
            extra=(--watermark "$work/origin/watermark.png" --preset "thumb=rs:fit:256:0/q:80/wm:0.5:soea:10:10:0.25")
            options="/unsafe/pr:thumb/plain/"
        fi
        "$cli" serve --port "$port" --allow-unsigned --allow-host 127.0.0.1 --cache-dir "$work/webimage-cache" --no-access-log \
            "${extra[@]}" >"$work/serve.log" 2>&1 &
        serve_pid=$!
        pids+=("$serve_pid")
        wait_for "http://127.0.0.1:$port/health"
        echo "webimage serve ($(nproc) cores, memory and disk caches)"
        bench_service webimage "http://127.0.0.1:$port" "$options" encoded "$serve_pid"
        kill "$serve_pid"
    else
        echo "webimage serve: skipped (this build has no serve subcommand)"
    fi
fi

# MARK: vipsthumbnail

# CPU (user + system) per image of vipsthumbnail making the same 256 px JPEG thumbnails (quality
# 80): three rounds, each one process over all the photos (its start-up shared by them).
if command -v vipsthumbnail >/dev/null; then
    mkdir -p "$work/vips"
    vips_cpu="$(python3 - "$work/vips" "$work/origin" "${photos[@]}" <<'PY'
import os, resource, subprocess, sys
out, origin, photos = sys.argv[1], sys.argv[2], sys.argv[3:]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
count = 0
for _ in range(3):
    subprocess.run(["vipsthumbnail", *[os.path.join(origin, photo) for photo in photos], "--size", "256x",
                    "-o", os.path.join(out, "%s.jpg[Q=80]")], check=True)
    count += len(photos)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(f"{cpu * 1000 / count:.2f}")
PY
)"
    echo "vipsthumbnail $(vipsthumbnail --vips-version 2>/dev/null | head -1): ${vips_cpu} ms CPU per image (one process per round of ${#photos[@]} photos)"
fi

# MARK: summary

echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
printf '%-18s %10s %10s %10s %8s %8s %14s\n' "service, mode" "req/s" "p50 ms" "p99 ms" "errors" "non-2xx" "CPU ms/request"
for key in "thumbor cached" "thumbor cold" "webimage cached" "webimage cold"; do
    [[ -n "${figures[$key]:-}" ]] || continue
    read -r rps p50 p99 errors status cpu <<<"${figures[$key]}"
    printf '%-18s %10s %10s %10s %8s %8s %14s\n' "$key" "$rps" "$p50" "$p99" "$errors" "$status" "$cpu"
done
for mode in cached cold; do
    [[ -n "${figures["thumbor $mode"]:-}" && -n "${figures["webimage $mode"]:-}" ]] || continue
    ours="$(cut -d' ' -f1 <<<"${figures["webimage $mode"]}")"
    theirs="$(cut -d' ' -f1 <<<"${figures["thumbor $mode"]}")"
    python3 -c "import sys; print(f'{sys.argv[1]}: webimage / thumbor = {float(sys.argv[2]) / float(sys.argv[3]):.1f}x requests/s (goal {sys.argv[4]})')" \
        "$mode" "$ours" "$theirs" "$([[ $mode == cached ]] && echo '>= 10x' || echo '>= 4x')"
done
echo "watermarks and presets: $( ((watermarks)) && echo on || echo off)"
if [[ -n "${vips_cpu:-}" && -n "${figures["webimage cold"]:-}" ]]; then
    ours_cpu="$(cut -d' ' -f6 <<<"${figures["webimage cold"]}")"
    python3 -c "import sys; print(f'cold CPU per request: webimage {sys.argv[1]} ms, vipsthumbnail {sys.argv[2]} ms per image: {float(sys.argv[1]) / float(sys.argv[2]):.2f}x (goal <= 1x)')" \
        "$ours_cpu" "$vips_cpu"
fi
