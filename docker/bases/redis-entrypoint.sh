#!/bin/sh
# Entrypoint of typing-local/redis (redis.Dockerfile): runs redis-server as `redis` with /data owned by it, and with
# protected mode off, as the official image does (without a config file Redis would refuse every client from another
# container). A config file given first stays first; arguments given later win over the ones added here.
set -eu

if [ "${1:-}" = redis-server ]; then
  shift
  if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
    conf=$1
    shift
    set -- redis-server "$conf" --protected-mode no "$@"
  else
    set -- redis-server --protected-mode no "$@"
  fi
  if [ "$(id -u)" = 0 ]; then
    [ "$(stat -c %U /data)" = redis ] || chown -R redis:redis /data
    exec setpriv --reuid=redis --regid=redis --init-groups "$@"
  fi
fi

exec "$@"
