#!/usr/bin/env bash
# CI's container step (the last of .ci/run; runs alone too): the image and the compose stack as docs/operations.md
# "Run with Docker" has them, proven by `npm run test:container`. What it needs comes from Debian's packages when
# missing: docker.io (the engine: the test starts its dockerd when none runs), docker-compose (v1) and mmdebstrap (the
# local base images are built from Debian's packages: no image registry is reached here). Nothing here is optional: a
# package that cannot be installed, an engine that does not start or a compose command that does not answer fails the
# step (CONTAINER_TESTS=required), whatever the caller's environment says.
# Needs node_modules (run after `npm ci`); root, or sudo, to install packages and start dockerd.
#   --install-only   install what is missing and stop (.ci/run does so first, so that a failed install fails at once)
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

# Debian puts dockerd in /usr/sbin, which a non-login PATH may lack (the test looks there too).
missing=()
command -v dockerd >/dev/null 2>&1 || [ -x /usr/sbin/dockerd ] || missing+=(docker.io)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
command -v mmdebstrap >/dev/null 2>&1 || missing+=(mmdebstrap)
if [ ${#missing[@]} -gt 0 ]; then
  echo "--- installing ${missing[*]}"
  mkdir -p .cache/ci
  apt_log=.cache/ci/apt.log
  if ! { $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >"$apt_log" 2>&1 ||
    { $SUDO apt-get update >>"$apt_log" 2>&1 &&
      $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >>"$apt_log" 2>&1; }; }; then
    tail -n 20 "$apt_log" >&2
    echo "--- FAILED: could not install ${missing[*]} (log: $apt_log); the container tests cannot run" >&2
    exit 1
  fi
fi

if [ "${1:-}" = "--install-only" ]; then exit 0; fi
CONTAINER_TESTS=required npm run test:container
