#!/bin/sh
# A hostile bot in shell: plays the first legal action; at each hello it tries to read the
# tournament's configuration and a file in the home, list and kill other processes, reach the
# network, and leave a process behind. Arguments: OUT HOME PORT MARKER.
out=$1 home=$2 port=$3 marker=$4
while read -r line; do
    case "$line" in
    *'"type":"hello"'*)
        echo "looked: config" >&2
        cat "$out/config.json" >/dev/null 2>&1 && echo "found: config" >&2
        echo "looked: home" >&2
        cat "$home/secret.txt" >/dev/null 2>&1 && echo "found: home" >&2
        echo "looked: sabotage" >&2
        # Only the tournament's processes (those naming its folder), should this run unsandboxed.
        work=$(dirname "$out")
        for pid in $(ls /proc | grep -E '^[0-9]+$'); do
            [ "$pid" != "$$" ] && grep -q "$work" "/proc/$pid/cmdline" 2>/dev/null || continue
            kill -9 "$pid" 2>/dev/null && echo "found: killed $pid" >&2
        done
        echo "looked: network" >&2
        if command -v python3 >/dev/null; then
            python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), timeout=2)" \
                2>/dev/null && echo "found: network" >&2
        fi
        echo '{"type":"ready"}'
        ;;
    *'"type":"act"'*)
        action=$(printf '%s\n' "$line" | sed 's/.*"legal_actions":\["\([^"]*\)".*/\1/')
        printf '{"type":"action","action":"%s"}\n' "$action"
        ;;
    *)
        echo "looked: leave behind" >&2
        (setsid sleep "$marker" </dev/null >/dev/null 2>&1 &) &
        exit 0
        ;;
    esac
done
