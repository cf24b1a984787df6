#!/usr/bin/env bash
# The README's two commands from a checkout under a private directory (mode 0700, as /root or `mktemp -d` are), where
# PostgreSQL -- which refuses root and so runs as the `postgres` user when we are root -- cannot reach the clone's
# binaries. Kept short: one e2e file through the jest global setup (`npm test`'s path), then `npm run dev`'s program
# with DEV_DATA_DIR=$(mktemp -d), one request, Ctrl-C, and a second start on the same data directory.
# Needs node_modules and dist in the current checkout (run after `npm ci` and `npm run build`).
set -euo pipefail
cd "$(dirname "$0")/.."
here="$PWD"

private=$(mktemp -d)
data=$(mktemp -d)
chmod 700 "$private" "$data"
dev_pid=""
cleanup() {
  if [ -n "$dev_pid" ]; then kill -INT "$dev_pid" 2>/dev/null || true; wait "$dev_pid" 2>/dev/null || true; fi
  # The dev cluster was moved out of the private data directory: remove it through the link.
  if [ -L "$data/postgres" ]; then rm -rf "$(readlink "$data/postgres")"; fi
  rm -rf "$private" "$data"
}
trap cleanup EXIT

echo "--- private checkout: clone into $private (mode $(stat -c %a "$private")), running as $(id -un)"
git clone -q "$here" "$private/repo"
# The installed tree, as `npm ci` would leave it (hard links: fast, same files and modes) and the build.
# Hard links need one file system; otherwise copy.
cp -al "$here/node_modules" "$private/repo/node_modules" 2>/dev/null ||
  { rm -rf "$private/repo/node_modules" && cp -a "$here/node_modules" "$private/repo/node_modules"; }
cp -a "$here/dist" "$private/repo/dist"
cd "$private/repo"

echo "--- private checkout: npm test's global setup (one e2e file)"
npx jest test/e2e/foundation/advisory-lock.e2e-spec.ts

echo "--- private checkout: npm run dev with DEV_DATA_DIR=\$(mktemp -d)"
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
start_dev() {
  DEV_DATA_DIR="$data" PORT="$port" node dist/src/dev.js >"$private/dev.log" 2>&1 &
  dev_pid=$!
  for _ in $(seq 1 120); do
    if grep -q 'API listening' "$private/dev.log"; then return 0; fi
    if ! kill -0 "$dev_pid" 2>/dev/null; then break; fi
    sleep 0.5
  done
  cat "$private/dev.log"
  echo "npm run dev did not start"
  return 1
}
stop_dev() {
  kill -INT "$dev_pid"
  wait "$dev_pid" || { cat "$private/dev.log"; return 1; }
  dev_pid=""
}
start_dev
curl -fsS --retry 5 --retry-connrefused --retry-delay 1 -H 'Authorization: Uid private-check|private@example.test' -X POST \
  -H 'content-type: application/json' -d '{"name":"privatecheck","email":"private@example.test","captcha":"x"}' \
  "http://127.0.0.1:$port/users/signup" >/dev/null
stop_dev
# Second start on the same data directory: the cluster (and the user signed up above) is still there.
start_dev
answer=$(curl -fsS --retry 5 --retry-connrefused --retry-delay 1 "http://127.0.0.1:$port/users/checkName/privatecheck")
stop_dev
if ! grep -q '"available":false' <<<"$answer"; then
  echo "expected the name taken by the first run, got $answer"
  exit 1
fi
echo "private checkout: ok"
