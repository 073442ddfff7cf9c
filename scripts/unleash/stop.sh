#!/usr/bin/env bash
# Stops what scripts/unleash/start.sh started, by the pids it saved (never by name); an Unleash it
# reused is left running. The database stays in $UNLEASH_DIR/pgdata (delete the folder to start afresh).
set -uo pipefail
DIR="${UNLEASH_DIR:-/tmp/flag-admin-unleash}"
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$1"; else sudo -u postgres sh -c "$1"; fi; }

pid="$(cat "$DIR/unleash.pid" 2>/dev/null || true)"
if [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "$DIR/server.mjs"; then
  echo "scripts/unleash: stopping Unleash (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$pid" 2>/dev/null && { echo "scripts/unleash: Unleash still up after 15 s: SIGKILL $pid"; kill -KILL "$pid" 2>/dev/null || true; }
else
  echo "scripts/unleash: no Unleash started by start.sh is running"
fi
rm -f "$DIR/unleash.pid"

if [ -f "$DIR/pgdata/postmaster.pid" ]; then
  PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r | head -1)"
  echo "scripts/unleash: stopping PostgreSQL (pid $(head -1 "$DIR/pgdata/postmaster.pid" 2>/dev/null))"
  as_postgres "'$PG_BIN/pg_ctl' -D '$DIR/pgdata' -m fast -w -t 30 stop" >/dev/null || echo "scripts/unleash: pg_ctl stop failed (see $DIR/pg.log)"
fi
