#!/bin/sh
# `npm start` and the Docker image: the API in production mode, with the heap defaults of docs/operations.md "Memory".
# The old-generation cap keeps the heap near its live size; the young generation is sized explicitly, because Node 24
# derives it from that cap (about 1 MB under 192 MB), and collecting it that often cost every request. Both are only
# defaults: a flag NODE_OPTIONS already has wins (one given on the command line would override NODE_OPTIONS).
# --no-allocation-site-pretenuring: under concurrent requests V8 moved whole allocation sites (rows, numbers, answer
# text) into the old generation, where they died and only full collections cleaned them: a quarter of a page's CPU
# (decision 49). It is a V8 flag, which NODE_OPTIONS refuses, so it is given here.
# --v8-pool-size=1: one helper thread for V8's background work (concurrent marking, parallel scavenges, compilation)
# instead of four. The server's JavaScript runs on one thread anyway; four helpers took the cores PostgreSQL answers
# on during each full collection, and a burst of requests waited on both (decision 50). A larger pool in NODE_OPTIONS
# wins.
# exec: the server gets the signals directly.
case " ${NODE_OPTIONS:-} " in
  *--max-old-space-size*) ;;
  *) NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--max-old-space-size=192"; export NODE_OPTIONS ;;
esac
case " $NODE_OPTIONS " in
  *--max-semi-space-size*) ;;
  *) NODE_OPTIONS="$NODE_OPTIONS --max-semi-space-size=32"; export NODE_OPTIONS ;;
esac
case " $NODE_OPTIONS " in
  *--v8-pool-size*) ;;
  *) NODE_OPTIONS="$NODE_OPTIONS --v8-pool-size=1"; export NODE_OPTIONS ;;
esac
exec node --no-allocation-site-pretenuring dist/src/main.js "$@"
