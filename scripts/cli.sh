#!/bin/sh
# `npm run cli`: the operator commands. The old-generation cap keeps the heap near its live size: an import streams
# millions of documents, and without a cap V8 lets their garbage pile up to hundreds of MB before it collects. The
# young generation is capped at 16 MB semi-spaces (Node 20's own size): Node 24 grows it to 128 MB under the import,
# which took that memory from the old generation's room and slowed the import by a third (decision 48). Both are only
# defaults: a flag NODE_OPTIONS already has wins (one given on the command line would override NODE_OPTIONS).
case " ${NODE_OPTIONS:-} " in
  *--max-old-space-size*) ;;
  *) NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--max-old-space-size=160"; export NODE_OPTIONS ;;
esac
case " $NODE_OPTIONS " in
  *--max-semi-space-size*) ;;
  *) NODE_OPTIONS="$NODE_OPTIONS --max-semi-space-size=16"; export NODE_OPTIONS ;;
esac
exec node dist/src/cli.js "$@"
