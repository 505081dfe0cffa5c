#!/usr/bin/env bash
# The fleet benchmark (issue 17), one run on this machine:
#  1. requests/s through nginx with 1, 2 and 3 `webimage serve` nodes (wrk -t2 -c16, 10 s, 200
#     distinct 256 px thumbnails, nodes warm, nginx's own cache bypassed so the nodes answer);
#  2. origin fetches for 200 sources requested 5 times each in random order, with and without the
#     Redis tier, with nginx balancing round-robin (the case the shared tier is for) and by
#     consistent hash.
# The origin is a second nginx serving 200 PNGs made here (hand-built bytes: zlib + struct).
# WEBIMAGE=path uses an existing binary; otherwise a release build is made. DURATION (s) and
# CONNECTIONS change the wrk run; REDIS=0 runs part 1 without the Redis tier and skips part 2.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
fleet="$root/deploy/fleet/fleet.sh"
duration="${DURATION:-10}"
connections="${CONNECTIONS:-16}"
command -v wrk >/dev/null || { echo "wrk is not installed (scripts/install-system-packages.sh --tools)" >&2; exit 1; }
nginx="$(command -v nginx || echo /usr/sbin/nginx)"
[[ -x "$nginx" ]] || { echo "nginx is not installed" >&2; exit 1; }

if [[ -z "${WEBIMAGE:-}" ]]; then
    swift build -c release --static-swift-stdlib --package-path "$root" --product webimage >&2
    WEBIMAGE="$root/.build/release/webimage"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/webimage-fleet-bench.XXXXXX")"
origin_pid=""
current=""
cleanup() {
    [[ -n "$current" ]] && bash "$fleet" stop "$current" >/dev/null 2>&1 || true
    [[ -n "$origin_pid" ]] && kill "$origin_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The origin's images: 640x480 RGB gradients, each different, as PNG.
mkdir -p "$work/origin/src" "$work/origin-temp"
python3 - "$work/origin/src" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
w, h = 640, 480
for i in range(200):
    row = b"\x00" + bytes(((x * 255 // w + i) % 256, (i * 7) % 256, 255 - x * 255 // w)[c] for x in range(w) for c in range(3))
    rows = b"".join(row[:1] + bytes((b + y) % 256 for b in row[1:]) if y % 60 == 0 else row for y in range(h))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")
    open(f"{sys.argv[1]}/{i}.png", "wb").write(png)
PY
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
origin_port=$(( 10000 + RANDOM % 20000 )); while port_in_use "$origin_port"; do origin_port=$(( 10000 + RANDOM % 20000 )); done  # below the ephemeral range
user_line=""
if [[ "$(id -u)" -eq 0 ]]; then chmod 0755 "$work"; chown -R nobody "$work/origin-temp"; user_line="user nobody $(id -gn nobody);"; fi
cat > "$work/origin.conf" <<CONF
$user_line
worker_processes 1;
pid $work/origin.pid;
error_log $work/origin-error.log warn;
events { worker_connections 1024; }
http {
    client_body_temp_path $work/origin-temp; proxy_temp_path $work/origin-temp;
    fastcgi_temp_path $work/origin-temp; uwsgi_temp_path $work/origin-temp; scgi_temp_path $work/origin-temp;
    log_format path "\$uri";
    access_log $work/origin-access.log path;
    types { image/png png; }
    server { listen 127.0.0.1:$origin_port; root $work/origin; add_header Cache-Control "public, max-age=3600"; }
}
CONF
"$nginx" -p "$work" -c "$work/origin.conf" -e "$work/origin-error.log" -g "daemon off;" >/dev/null 2>&1 &
origin_pid=$!
until port_in_use "$origin_port"; do sleep 0.05; done

paths="$work/paths.txt"
: > "$paths"
for i in $(seq 0 199); do
    source="http://127.0.0.1:$origin_port/src/$i.png"
    encoded="$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$source")"
    echo "/unsafe/rs:fit:256:256/plain/$encoded@png" >> "$paths"
done
cat > "$work/paths.lua" <<LUA
local paths = {}
for line in io.lines("$paths") do paths[#paths + 1] = line end
local n = 0
request = function()
    n = n % #paths + 1
    return wrk.format("GET", paths[n], { ["X-Fleet-Bypass"] = "1" })
end
LUA

with_redis="${REDIS:-1}"
start_fleet() {  # nodes, extra fleet.sh options…
    local nodes="$1"; shift
    [[ "$with_redis" == 1 ]] || set -- "$@" --no-redis
    local out; out="$(bash "$fleet" start --nodes "$nodes" --webimage "$WEBIMAGE" --workers 2 "$@" -- --allow-unsigned --allow-host 127.0.0.1)"
    eval "$out"
    current="$FLEET_DIR"
}
stop_fleet() { bash "$fleet" stop "$current" >/dev/null 2>&1 || true; current=""; }
fetch_all() {  # each path once, through nginx, bypassing its cache
    while read -r path; do curl -s -o /dev/null -H 'X-Fleet-Bypass: 1' "$FLEET_URL$path"; done < "$paths"
}

echo "# fleet-compare: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
echo
echo "| nodes | requests/s | p50 | p99 | non-2xx |"
echo "|---|---|---|---|---|"
for nodes in 1 2 3; do
    start_fleet "$nodes"
    fetch_all
    result="$(wrk -t2 -c"$connections" -d"${duration}s" --latency -s "$work/paths.lua" "$FLEET_URL")"
    rps="$(awk '/Requests\/sec/ {print $2}' <<< "$result")"
    p50="$(awk '$1 == "50%" {print $2}' <<< "$result")"
    p99="$(awk '$1 == "99%" {print $2}' <<< "$result")"
    errors="$(awk '/Non-2xx/ {print $NF}' <<< "$result")"
    echo "| $nodes | $rps | $p50 | $p99 | ${errors:-0} |"
    stop_fleet
done

[[ "$with_redis" == 1 ]] || exit 0
echo
echo "| balance | Redis tier | origin fetches for 200 sources × 5 requests |"
echo "|---|---|---|"
python3 -c 'import random; lines = open("'"$paths"'").read().split(); random.seed(17); order = lines * 5; random.shuffle(order); print("\n".join(order))' > "$work/order.txt"
for balance in round-robin hash; do
    for redis in with without; do
        : > "$work/origin-access.log"
        kill -USR1 "$origin_pid"   # reopen the access log
        sleep 0.2
        if [[ "$redis" == with ]]; then start_fleet 3 --balance "$balance"; else start_fleet 3 --balance "$balance" --no-redis; fi
        xargs -P 16 -I{} curl -s -o /dev/null -H 'X-Fleet-Bypass: 1' "$FLEET_URL{}" < "$work/order.txt"
        stop_fleet
        echo "| $balance | $redis | $(grep -c '^/src/' "$work/origin-access.log" || true) |"
    done
done
