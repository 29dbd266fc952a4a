#!/usr/bin/env bash
# A streaming replica of the test PostgreSQL on this machine, for `npm run test:read-replica`.
#   replica-cluster.sh up DIR    base backup of the primary into DIR, started on a free port; prints the port
#   replica-cluster.sh stop DIR  stops it, keeping DIR (a replica that is down)
#   replica-cluster.sh start DIR starts it again
#   replica-cluster.sh down DIR  stops it (fast, then immediate) and removes DIR
# The primary (127.0.0.1:5432) must accept replication connections from 127.0.0.1: a missing
# `host replication postgres 127.0.0.1/32 trust` line is appended to its pg_hba.conf and reloaded.
set -euo pipefail
BIN=/usr/lib/postgresql/15/bin
PRIMARY_HOST=127.0.0.1
PRIMARY_PORT=${PRIMARY_PORT:-5432}
cmd=${1:?up or down}
dir=${2:?data directory}
as_postgres() { if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi; }

case "$cmd" in
up)
  hba=$(psql -h "$PRIMARY_HOST" -p "$PRIMARY_PORT" -U postgres -d postgres -Atc 'SHOW hba_file')
  if ! grep -Eq '^[[:space:]]*host[[:space:]]+replication[[:space:]]+(postgres|all)[[:space:]]+127\.0\.0\.1/32[[:space:]]+trust' "$hba"; then
    printf '# streaming replicas of the test server (compliance-read test:read-replica)\nhost replication postgres 127.0.0.1/32 trust\n' >>"$hba"
    psql -h "$PRIMARY_HOST" -p "$PRIMARY_PORT" -U postgres -d postgres -Atc 'SELECT pg_reload_conf()' >/dev/null
    echo "added a replication line to $hba and reloaded" >&2
  fi
  port=""
  for p in $(seq 5433 5452); do
    if ! (exec 3<>/dev/tcp/127.0.0.1/"$p") 2>/dev/null; then port=$p; break; fi
  done
  [ -n "$port" ] || { echo "no free port in 5433-5452" >&2; exit 1; }
  rm -rf "$dir"
  mkdir -m 0700 -p "$dir"
  chown postgres: "$dir"
  as_postgres "$BIN/pg_basebackup" -h "$PRIMARY_HOST" -p "$PRIMARY_PORT" -U postgres -D "$dir" -R -X stream -c fast >&2
  # Debian keeps the primary's configuration outside its data directory: the replica gets its own.
  as_postgres sh -c "umask 077; cat >'$dir/postgresql.conf' <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
hot_standby = on
max_connections = 100
shared_buffers = 64MB
logging_collector = off
CONF
printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' >'$dir/pg_hba.conf'
: >'$dir/pg_ident.conf'"
  as_postgres "$BIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start >&2
  echo "$port"
  ;;
stop)
  as_postgres "$BIN/pg_ctl" -D "$dir" -m fast -w -t 20 stop >&2
  ;;
start)
  as_postgres "$BIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start >&2
  ;;
down)
  if [ -f "$dir/postmaster.pid" ]; then
    as_postgres "$BIN/pg_ctl" -D "$dir" -m fast -w -t 20 stop >&2 || as_postgres "$BIN/pg_ctl" -D "$dir" -m immediate -w -t 10 stop >&2 || true
  fi
  rm -rf "$dir"
  ;;
*) echo "unknown command $cmd" >&2; exit 2 ;;
esac
