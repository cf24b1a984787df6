#!/bin/sh
# `npm run cli`: the operator commands. The old-generation cap keeps the heap near its live size: an import streams
# millions of documents, and without a cap V8 lets their garbage pile up to hundreds of MB before it collects. Only a
# default: a --max-old-space-size in NODE_OPTIONS wins (a flag on the command line would override NODE_OPTIONS).
case " ${NODE_OPTIONS:-} " in
  *--max-old-space-size*) ;;
  *) NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--max-old-space-size=160"; export NODE_OPTIONS ;;
esac
exec node dist/src/cli.js "$@"
