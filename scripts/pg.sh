#!/usr/bin/env bash
# A throwaway PostgreSQL on loopback, in a folder of its own: no system service, no
# network beyond 127.0.0.1, fsync off (tests and benchmarks only; nothing here is kept).
#
#   scripts/pg.sh start DIR [PORT]   initdb + start; prints the server's URL (database postgres)
#   scripts/pg.sh stop DIR           stops it and removes DIR
#
# Debian's packages (postgresql) provide the binaries: scripts/setup.sh --test installs them.
set -euo pipefail
cmd=${1:?start or stop}
dir=${2:?a folder}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "pg.sh: PostgreSQL's server is not installed (scripts/setup.sh --test)" >&2; exit 1; }
# initdb refuses to run as root: the cluster belongs to Debian's postgres account then.
as=()
if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); fi
case $cmd in
start)
  port=${3:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
  mkdir -p "$dir"
  [ ${#as[@]} -eq 0 ] || chown postgres "$dir"
  "${as[@]}" "$bin/initdb" -D "$dir/data" -U lvlx -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log"
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start -o \
    "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=500 -c shared_buffers=256MB" >/dev/null
  echo "postgres://lvlx@127.0.0.1:$port/postgres"
  ;;
stop)
  if [ -d "$dir/data" ]; then "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; fi
  rm -rf "$dir"
  ;;
*) echo "pg.sh: start or stop" >&2; exit 2 ;;
esac
