#!/usr/bin/env bash
# Runs a command with the machine's clock moved, as if today were another day: the command, every
# process it starts (servers, Chromium, PGlite) and a PostgreSQL of its own all see the new time,
# which then moves on at the normal pace.
#
#   bash scripts/clock-moved.sh '2027-12-06 12:00:00' npm test
#   TZ=America/Sao_Paulo bash scripts/clock-moved.sh '2027-01-31 23:59:00' npm run test:e2e
#
# The time is read in the zone of TZ (UTC when unset). Needs Debian's faketime and PostgreSQL's
# server binaries (`apt-get install faketime`); TEST_DATABASE_URL is pointed at a throwaway
# cluster started under the same clock on a free port, and dropped at the end.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 'YYYY-MM-DD HH:MM:SS' command [args...]" >&2
  exit 2
fi
when=$1
shift
ls /usr/lib/*/faketime/libfaketime.so.1 >/dev/null 2>&1 || {
  echo 'libfaketime is missing: apt-get install faketime' >&2
  exit 2
}

# One offset from the real clock for every process, whenever it starts, so the test runner, the
# servers it starts later and PostgreSQL agree on the time. Monotonic clocks are left alone, so
# timers, timeouts and performance.now() keep their real pace.
offset=$(($(date -d "$when" +%s) - $(date +%s)))
# Chromium cannot run under libfaketime: tests/support/browser.ts moves its pages' Date instead.
export VITRINE_TEST_CLOCK_OFFSET_MS=$((offset * 1000))
export FAKETIME_DONT_FAKE_MONOTONIC=1
export FAKETIME_NO_CACHE=1
libfaketime=$(ls /usr/lib/*/faketime/libfaketime.so.1 | head -n 1)
moved() { FAKETIME="$(printf '%+d' "$offset")" LD_PRELOAD="$libfaketime" "$@"; }

bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
cluster=$(mktemp -d /tmp/vitrine-clock-pg.XXXXXX)
port=$(node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" = 0 ] && chown postgres "$cluster"
as_postgres "$bin/initdb" -D "$cluster/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
stop_cluster() {
  as_postgres "$bin/pg_ctl" -D "$cluster/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$cluster"
}
trap stop_cluster EXIT
moved as_postgres "$bin/pg_ctl" -D "$cluster/data" -l "$cluster/log" \
  -o "-p $port -k $cluster -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off" \
  start >/dev/null
for _ in $(seq 1 60); do pg_isready -q -h 127.0.0.1 -p "$port" && break; sleep 0.5; done
# The read replica test copies the cluster over a replication connection.
echo 'host replication postgres 127.0.0.1/32 trust' >>"$cluster/data/pg_hba.conf"
as_postgres "$bin/pg_ctl" -D "$cluster/data" reload >/dev/null
psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -qAtc "select 'PostgreSQL clock: ' || now()"
export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"

moved "$@"
