#!/usr/bin/env bash
# A fleet on one machine: redis-server, N `webimage serve` nodes and nginx in front, each on a free
# loopback port, everything (configs, caches, logs, pids) under one temporary directory.
#
#   deploy/fleet/fleet.sh start [--nodes N] [--dir DIR] [--webimage PATH] [--no-redis] [--workers N]
#                               [--balance hash|round-robin] [-- SERVE-ARGS...]
#       starts the fleet and prints its description (also written to DIR/fleet.env):
#       FLEET_DIR, FLEET_URL (nginx), FLEET_REDIS_URL, FLEET_REDIS_PID, FLEET_NGINX_PID,
#       FLEET_NODE_PORTS and FLEET_NODE_PIDS (space-separated, node order).
#   deploy/fleet/fleet.sh stop DIR [--keep]       stops everything started there (and removes DIR).
#   deploy/fleet/fleet.sh kill-node DIR I         SIGKILLs node I (0-based): a crash.
#   deploy/fleet/fleet.sh stop-redis DIR          SIGKILLs redis-server.
#   deploy/fleet/fleet.sh start-redis DIR         starts redis-server again on its port.
#
# SERVE-ARGS go to every node (e.g. --allow-unsigned --allow-host 127.0.0.1). Nodes run
# `webimage serve --bind 127.0.0.1 --port P --cache-dir DIR/node-I [--redis URL] SERVE-ARGS`;
# the Redis tier's entries are signed, so unless SERVE-ARGS or the environment give a key
# (--redis-key, WEBIMAGE_REDIS_KEY, or --key/--salt to derive one from), the fleet makes one
# (DIR/redis-key, mode 0600) and passes it to every node as `--redis-key fleet:HEX`.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
die() { echo "fleet.sh: $*" >&2; exit 1; }

find_binary() {  # name → path (PATH, then the sbin directories nginx lives in)
    local name="$1" dir
    if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return; fi
    for dir in /usr/sbin /usr/local/sbin /sbin /usr/local/bin; do
        [[ -x "$dir/$name" ]] && { echo "$dir/$name"; return; }
    done
    return 1
}

# Runs a daemon in the background with its output in OUT and no other inherited descriptor (a
# parent's pipe or socket held open by a long-lived child would make the parent wait forever).
spawn() {  # OUT COMMAND...
    local out="$1"; shift
    (
        for fd in /proc/self/fd/*; do
            n="${fd##*/}"
            if (( n > 2 && n != 255 )); then eval "exec $n>&-" 2>/dev/null || true; fi
        done
        exec "$@" < /dev/null > "$out" 2>&1
    ) &
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A port nothing uses, not handed out before in this run, below the kernel's ephemeral range: a
# port in that range may be the local end of an outgoing connection (wrk's, nginx's upstream
# ones), and then binding it fails even though nothing listens there. Sets $picked_port.
free_port() {
    local port low=10000 high
    high=$(( $(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768) - 1 ))
    (( high > low + 1000 )) || high=30000
    for _ in $(seq 1 200); do
        port=$(( low + RANDOM % (high - low) ))
        [[ " ${used_ports:-} " == *" $port "* ]] && continue
        port_in_use "$port" && continue
        if command -v ss >/dev/null && [[ -n "$(ss -Htan "( sport = :$port )" 2>/dev/null)" ]]; then continue; fi
        used_ports="${used_ports:-} $port"
        picked_port="$port"
        return
    done
    die "no free port found"
}

wait_for_port() {  # port seconds name [pid: fail at once when it exits]
    local deadline=$(( SECONDS + $2 ))
    until port_in_use "$1"; do
        (( SECONDS < deadline )) || die "$3 did not listen on 127.0.0.1:$1 within $2 s (logs in $dir)"
        if [[ -n "${4:-}" ]] && ! kill -0 "$4" 2>/dev/null; then
            die "$3 exited before listening: $(tail -n 3 "$dir/${3// /-}.log" 2>/dev/null | tr '\n' ' ')"
        fi
        sleep 0.05
    done
}

# The status code of GET PATH on 127.0.0.1:PORT (HTTP/1.0, bash's /dev/tcp: no curl needed).
http_status() {  # port path
    local line
    exec 3<>"/dev/tcp/127.0.0.1/$1" || return 0
    printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\nX-Fleet-Bypass: 1\r\n\r\n' "$2" >&3
    IFS=' ' read -r -t 10 _ line _ <&3 || true
    exec 3<&- 3>&-
    echo "${line:-}"
}

# As root, nginx's workers run as nobody: stops with the reason when nobody cannot write in DIR,
# naming the first directory on its path that nobody may not enter.
check_reachable_by_nobody() {  # dir
    runuser -u nobody -- test -w "$1" -a -x "$1" 2>/dev/null && return 0
    local path="" part blocked="$1"
    local IFS=/
    for part in $1; do
        [[ -n "$part" ]] || continue
        path="$path/$part"
        if ! runuser -u nobody -- test -x "$path" 2>/dev/null; then blocked="$path"; break; fi
    done
    die "nginx's workers run as nobody, who cannot enter $blocked ($(stat -c '%A %U' "$blocked")): choose a --dir they can reach, or let them through (chmod o+x $blocked)"
}

start_redis() {  # uses $dir, $redis_port
    spawn /dev/null "$redis_server" --port "$redis_port" --bind 127.0.0.1 --dir "$dir/redis" --save "" --appendonly no \
        --daemonize no --protected-mode no --maxmemory 256mb --maxmemory-policy allkeys-lru \
        --logfile "$dir/redis.log"
    echo $! > "$dir/redis.pid"
    wait_for_port "$redis_port" 10 redis-server
}

cmd_start() {
    local nodes=3 webimage="" with_redis=1 workers=1 balance=hash
    dir=""
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --nodes) nodes="$2"; shift 2 ;;
            --dir) dir="$2"; shift 2 ;;
            --webimage) webimage="$2"; shift 2 ;;
            --no-redis) with_redis=0; shift ;;
            --workers) workers="$2"; shift 2 ;;
            --balance) balance="$2"; shift 2 ;;
            --) shift; break ;;
            *) die "unknown option $1" ;;
        esac
    done
    local serve_args=("$@")
    [[ "$nodes" =~ ^[1-9][0-9]*$ ]] || die "--nodes wants a positive number"
    [[ "$balance" == hash || "$balance" == round-robin ]] || die "--balance is hash or round-robin"
    [[ -n "$webimage" ]] || webimage="$(find_binary webimage)" || die "no webimage binary (pass --webimage PATH)"
    local nginx; nginx="$(find_binary nginx)" || die "nginx is not installed (scripts/install-system-packages.sh)"
    if (( with_redis )); then
        redis_server="$(find_binary redis-server)" || die "redis-server is not installed (scripts/install-system-packages.sh)"
    fi
    [[ -n "$dir" ]] || dir="$(mktemp -d "${TMPDIR:-/tmp}/webimage-fleet.XXXXXX")"
    mkdir -p "$dir/redis" "$dir/nginx-cache" "$dir/nginx-temp"
    # Run as root, nginx's workers drop to nobody: give them the cache and temp directories, and
    # make sure, before anything starts, that they can reach them (a parent they cannot enter
    # made every request a 500, with only a [crit] line in nginx-error.log).
    local user_line=""
    if [[ "$(id -u)" -eq 0 ]]; then
        chmod 0755 "$dir"
        chown -R nobody "$dir/nginx-cache" "$dir/nginx-temp"
        user_line="user nobody $(id -gn nobody);"
        check_reachable_by_nobody "$dir/nginx-cache"
    fi
    touch "$dir/fleet.starting"
    # A failed start stops whatever it started (the directory and its logs stay).
    trap '[[ -f "$dir/fleet.starting" ]] && cmd_stop "$dir" --keep' EXIT

    local redis_url=""
    if (( with_redis )); then
        free_port; redis_port="$picked_port"
        echo "$redis_port" > "$dir/redis.port"
        start_redis
        redis_url="redis://127.0.0.1:$redis_port"
    fi

    local redis_key_args=()
    if [[ -n "$redis_url" && -z "${WEBIMAGE_REDIS_KEY:-}" && -z "${WEBIMAGE_KEY:-}" ]] \
        && [[ " ${serve_args[*]} " != *" --redis-key"* && " ${serve_args[*]} " != *" --key"* ]]; then
        (umask 077; od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/redis-key")
        redis_key_args=(--redis-key "fleet:$(cat "$dir/redis-key")")
    fi

    local ports=() pids=() servers="" i port
    for (( i = 0; i < nodes; i++ )); do
        free_port; port="$picked_port"
        mkdir -p "$dir/node-$i"
        local args=(serve --bind 127.0.0.1 --port "$port" --cache-dir "$dir/node-$i")
        [[ -n "$redis_url" ]] && args+=(--redis "$redis_url" "${redis_key_args[@]}")
        spawn "$dir/node-$i.log" "$webimage" "${args[@]}" "${serve_args[@]}"
        pids+=($!)
        echo $! > "$dir/node-$i.pid"
        ports+=("$port")
        servers+="        server 127.0.0.1:$port max_fails=1 fail_timeout=2s;"$'\n'
    done
    for (( i = 0; i < nodes; i++ )); do wait_for_port "${ports[$i]}" 60 "node $i" "${pids[$i]}"; done

    local nginx_port; free_port; nginx_port="$picked_port"
    local servers_file="$dir/servers.conf"
    printf '%s' "$servers" > "$servers_file"
    sed -e "s|@DIR@|$dir|g" -e "s|@PORT@|$nginx_port|g" -e "s|@WORKERS@|$workers|g" -e "s|@USER@|$user_line|g" \
        -e "/@SERVERS@/{r $servers_file" -e "d}" "$here/nginx.conf.template" > "$dir/nginx.conf"
    [[ "$balance" == hash ]] || sed -i '/hash \$request_uri consistent;/d' "$dir/nginx.conf"
    spawn "$dir/nginx.out" "$nginx" -p "$dir" -c "$dir/nginx.conf" -e "$dir/nginx-error.log" -g "daemon off;"
    echo $! > "$dir/nginx.master.pid"
    wait_for_port "$nginx_port" 10 nginx
    # The fleet is up when a request through nginx reaches a node and comes back.
    local status; status="$(http_status "$nginx_port" /health)"
    [[ "$status" == 200 ]] || die "GET /health through nginx answered ${status:-nothing}, not 200: $(tail -n 2 "$dir/nginx-error.log" 2>/dev/null | tr '\n' ' ')"

    {
        echo "FLEET_DIR=$dir"
        echo "FLEET_URL=http://127.0.0.1:$nginx_port"
        echo "FLEET_REDIS_URL=$redis_url"
        echo "FLEET_REDIS_PID=$(cat "$dir/redis.pid" 2>/dev/null || true)"
        echo "FLEET_NGINX_PID=$(cat "$dir/nginx.master.pid")"
        echo "FLEET_NODE_PORTS=\"${ports[*]}\""
        echo "FLEET_NODE_PIDS=\"${pids[*]}\""
    } | tee "$dir/fleet.env"
    rm -f "$dir/fleet.starting"
}

stop_pid_file() {  # file: TERM, wait up to 5 s, then KILL
    local file="$1" pid
    [[ -f "$file" ]] || return 0
    pid="$(cat "$file")"
    if kill -0 "$pid" 2>/dev/null; then
        kill -CONT "$pid" 2>/dev/null || true
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$file"
}

cmd_stop() {
    local dir="${1:?usage: fleet.sh stop DIR [--keep]}" keep="${2:-}"
    [[ -f "$dir/fleet.env" || -f "$dir/fleet.starting" ]] || die "$dir is not a fleet directory"
    stop_pid_file "$dir/nginx.master.pid"
    local file
    for file in "$dir"/node-*.pid; do [[ -e "$file" ]] && stop_pid_file "$file"; done
    stop_pid_file "$dir/redis.pid"
    [[ "$keep" == "--keep" ]] || rm -rf "$dir"
}

cmd_kill_node() {
    local dir="${1:?usage: fleet.sh kill-node DIR I}" index="${2:?usage: fleet.sh kill-node DIR I}"
    local file="$dir/node-$index.pid"
    [[ -f "$file" ]] || die "no node $index in $dir"
    kill -KILL "$(cat "$file")" 2>/dev/null || true
    rm -f "$file"
}

case "${1:-}" in
    start) shift; cmd_start "$@" ;;
    stop) shift; cmd_stop "$@" ;;
    kill-node) shift; cmd_kill_node "$@" ;;
    stop-redis) shift; dir="${1:?usage: fleet.sh stop-redis DIR}"; kill -KILL "$(cat "$dir/redis.pid")" 2>/dev/null || true ;;
    start-redis)
        shift; dir="${1:?usage: fleet.sh start-redis DIR}"
        redis_server="$(find_binary redis-server)" || die "redis-server is not installed"
        redis_port="$(cat "$dir/redis.port")"
        start_redis ;;
    *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
