#!/bin/sh
# Entrypoint of typing-local/postgres (postgres.Dockerfile): the part of the official image's contract that
# docker/compose.yml relies on. On an empty PGDATA: initdb with POSTGRES_USER (default postgres) and
# POSTGRES_PASSWORD (required), password (scram-sha-256) authentication from the network, trust on the local socket,
# then POSTGRES_DB (default: the user's name) created in single-user mode, so no server answers before it is complete
# (a health check cannot pass half-way through). Then the server, as `postgres`, listening on every address.
set -eu

if [ "${1:-}" = postgres ] && [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo 'postgres: POSTGRES_PASSWORD must be set to initialise the database' >&2
    exit 1
  fi
  user=${POSTGRES_USER:-postgres}
  db=${POSTGRES_DB:-$user}
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb --pgdata="$PGDATA" --username="$user" --pwfile="$pwfile" --auth-local=trust \
    --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  if [ "$db" != postgres ]; then
    # Identifier quoting: a double quote inside the name is doubled.
    quoted=$(printf '%s' "$db" | sed 's/"/""/g')
    echo "CREATE DATABASE \"$quoted\" OWNER \"$(printf '%s' "$user" | sed 's/"/""/g')\"" |
      postgres --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "postgres: initialised $PGDATA (user $user, database $db)"
fi

exec "$@"
