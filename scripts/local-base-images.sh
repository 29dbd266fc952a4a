#!/usr/bin/env bash
# Makes local stand-ins for the Dockerfile's two base images when no image registry is reachable:
# node:20-bookworm (build: python3, make, g++, Node headers) and node:20-bookworm-slim (runtime),
# each a Debian bookworm rootfs from debootstrap plus this machine's Node 20 and npm and its CA
# bundle, laid out like the official images (/usr/local). An image that already exists is kept;
# --force makes both again. Needs root and a Docker daemon (scripts/docker-daemon.sh).
set -euo pipefail

BUILD_TAG=node:20-bookworm
SLIM_TAG=node:20-bookworm-slim
WORK=${BASE_IMAGES_WORK:-/var/tmp/compliance-base-images}
STEP_TIMEOUT_S=${BASE_IMAGES_STEP_TIMEOUT_S:-1200}
FORCE=0
[ "${1:-}" = "--force" ] && FORCE=1

say() { echo "local-base-images: $*"; }
die() { echo "local-base-images: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "debootstrap needs root"
timeout 10 docker info >/dev/null 2>&1 || die "no Docker daemon answers (run scripts/docker-daemon.sh)"

have() { docker image inspect "$1" >/dev/null 2>&1; }
if [ "$FORCE" = 0 ] && have "$BUILD_TAG" && have "$SLIM_TAG"; then
  say "$BUILD_TAG and $SLIM_TAG already exist (--force to make them again)"
  docker image ls --format '  {{.Repository}}:{{.Tag}}  {{.ID}}  {{.Size}}' node
  exit 0
fi

if ! command -v debootstrap >/dev/null 2>&1; then
  say "installing debootstrap"
  timeout 600 apt-get install -y --no-install-recommends debootstrap >/dev/null
fi

# The Debian mirror this machine's apt already uses (deb822 .sources first, then sources.list lines).
mirror() {
  local m
  m=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v -- '-security' | head -n1 || true)
  [ -n "$m" ] || m=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}' | grep -v -- '-security' | head -n1 || true)
  echo "${m:-http://deb.debian.org/debian}"
}
MIRROR=$(mirror)

NODE_BIN=$(node -p process.execPath)
NODE_PREFIX=$(dirname "$(dirname "$NODE_BIN")")
NODE_VERSION=$(node -p 'process.versions.node')
case "$NODE_VERSION" in 20.*) ;; *) die "this machine's node is $NODE_VERSION, not 20" ;; esac
[ -d "$NODE_PREFIX/lib/node_modules/npm" ] || die "npm not found at $NODE_PREFIX/lib/node_modules/npm"
[ -d "$NODE_PREFIX/include/node" ] || die "Node headers not found at $NODE_PREFIX/include/node"
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
[ -f "$CA_BUNDLE" ] || die "no CA bundle at $CA_BUNDLE"

mkdir -p "$WORK/cache"
chmod 700 "$WORK"

# Node and npm where the official images keep them, and the CA bundle Node and npm trust.
add_node() {
  local root=$1 headers=$2
  install -d "$root/usr/local/bin" "$root/usr/local/lib/node_modules" "$root/etc/ssl/certs"
  cp "$NODE_BIN" "$root/usr/local/bin/node"
  rm -rf "$root/usr/local/lib/node_modules/npm"
  cp -a "$NODE_PREFIX/lib/node_modules/npm" "$root/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  if [ "$headers" = 1 ]; then
    install -d "$root/usr/local/include"
    rm -rf "$root/usr/local/include/node"
    cp -a "$NODE_PREFIX/include/node" "$root/usr/local/include/node"
  fi
  cp "$CA_BUNDLE" "$root/etc/ssl/certs/ca-certificates.crt"
}

# What the slim image leaves out, as the official slim image does.
trim() {
  local root=$1
  rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
    "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
    "$root"/var/log/*.log
}

make_image() {
  local tag=$1 include=$2 headers=$3
  if [ "$FORCE" = 0 ] && have "$tag"; then
    say "$tag already exists, kept"
    return
  fi
  local name=${tag//[:.]/-}
  local root="$WORK/$name"
  rm -rf "$root"
  say "debootstrap bookworm from $MIRROR for $tag${include:+ (with $include)}"
  timeout "$STEP_TIMEOUT_S" debootstrap --variant=minbase --cache-dir="$WORK/cache" \
    ${include:+--include="$include"} bookworm "$root" "$MIRROR" >"$WORK/$name.debootstrap.log" 2>&1 \
    || { tail -n 20 "$WORK/$name.debootstrap.log" >&2; die "debootstrap for $tag failed (log $WORK/$name.debootstrap.log)"; }
  add_node "$root" "$headers"
  trim "$root"
  say "importing $tag"
  tar -C "$root" --numeric-owner -c . | timeout "$STEP_TIMEOUT_S" docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=$NODE_VERSION" \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["node"]' \
    --message "local stand-in for $tag: Debian bookworm (debootstrap) and Node $NODE_VERSION" \
    - "$tag" >/dev/null
  rm -rf "$root"
  timeout 60 docker run --rm --network none "$tag" node -e 'process.stdout.write(`  node ${process.version} runs in it\n`)'
}

make_image "$SLIM_TAG" "" 0
make_image "$BUILD_TAG" "python3,make,g++" 1

say "made:"
docker image ls --format '  {{.Repository}}:{{.Tag}}  {{.ID}}  {{.Size}}' node
