#!/bin/sh
# `npm start` and the Docker image: the API in production mode. The old-generation cap keeps the heap near its live
# size (docs/operations.md "Memory"); it is only a default, so a --max-old-space-size in NODE_OPTIONS wins (a flag
# given on the command line would override NODE_OPTIONS). exec: the server gets the signals directly.
case " ${NODE_OPTIONS:-} " in
  *--max-old-space-size*) ;;
  *) NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--max-old-space-size=192"; export NODE_OPTIONS ;;
esac
exec node dist/src/main.js "$@"
