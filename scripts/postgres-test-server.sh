#!/usr/bin/env bash
# A throwaway PostgreSQL server for the `ctxkit/postgres` tests: a fresh cluster in a temporary
# directory, listening on 127.0.0.1 only, run as an unprivileged user, with durability switched off
# (it holds test data only).
#
#   eval "$(bash scripts/postgres-test-server.sh start)"   # prints `export CTXKIT_TEST_POSTGRES_URL=…`
#   npx vitest run test/postgres
#   bash scripts/postgres-test-server.sh stop               # stops it and deletes its directory
#
# Needs the PostgreSQL server binaries (Debian: `apt-get install -y postgresql`). Settings:
#   CTXKIT_POSTGRES_DIR   where the cluster lives (default: a directory under $TMPDIR named after
#                         this checkout, so two checkouts on one machine do not collide)
#   CTXKIT_POSTGRES_PORT  the first port to try (default 54329; the next free one is used)
#   CTXKIT_POSTGRES_BIN   the directory of initdb and pg_ctl (default: the newest found)
set -euo pipefail
# runuser and useradd live in sbin, which a minimal PATH may lack.
export PATH="$PATH:/usr/sbin:/sbin"

root="$(cd "$(dirname "$0")/.." && pwd)"
checkout_key="$(printf '%s' "$root" | cksum | cut -d ' ' -f 1)"
directory="${CTXKIT_POSTGRES_DIR:-${TMPDIR:-/tmp}/ctxkit-postgres-${checkout_key}}"
data="$directory/data"

log() { echo "postgres-test-server: $*" >&2; }

find_bin() {
  if [[ -n "${CTXKIT_POSTGRES_BIN:-}" ]]; then
    echo "$CTXKIT_POSTGRES_BIN"
    return
  fi
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [[ -z "$found" ]] && command -v pg_ctl >/dev/null; then found="$(dirname "$(command -v pg_ctl)")"; fi
  if [[ -z "$found" ]]; then
    log "no PostgreSQL server binaries found. Install them (Debian: apt-get install -y postgresql) or set CTXKIT_POSTGRES_BIN."
    exit 1
  fi
  echo "$found"
}

# initdb and postgres refuse to run as root: as root, run them as the `postgres` user.
as_owner() {
  if [[ "$(id -u)" -eq 0 ]]; then
    if ! id postgres >/dev/null 2>&1; then
      useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    fi
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  local bin port
  bin="$(find_bin)"
  if [[ -f "$directory/url" ]] && as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    log "already running"
    echo "export CTXKIT_TEST_POSTGRES_URL='$(cat "$directory/url")'"
    return
  fi
  rm -rf "$directory"
  mkdir -p "$directory/socket"
  if [[ "$(id -u)" -eq 0 ]]; then as_owner true && chown -R postgres "$directory"; fi
  as_owner "$bin/initdb" -D "$data" -U ctxkit --auth=trust --encoding=UTF8 --locale=C --no-sync >"$directory/initdb.log" 2>&1 ||
    { cat "$directory/initdb.log" >&2; exit 1; }
  port="${CTXKIT_POSTGRES_PORT:-54329}"
  while ! port_free "$port"; do port=$((port + 1)); done
  as_owner "$bin/pg_ctl" -D "$data" -l "$directory/server.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $directory/socket -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100" \
    start >&2 || { cat "$directory/server.log" >&2; exit 1; }
  local url="postgresql://ctxkit@127.0.0.1:$port/postgres"
  echo "$url" >"$directory/url"
  log "running at $url (data in $directory)"
  echo "export CTXKIT_TEST_POSTGRES_URL='$url'"
}

stop() {
  if [[ ! -d "$data" ]]; then
    log "not running"
    return
  fi
  local bin
  bin="$(find_bin)"
  as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >&2 || true
  rm -rf "$directory"
  log "stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
