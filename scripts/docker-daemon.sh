#!/usr/bin/env bash
# Makes sure a Docker daemon answers: installs Debian's docker.io when dockerd is missing and starts
# dockerd in the background when no daemon answers. Containers use --network host only, so the
# daemon runs without a bridge and without iptables rules. Exits non-zero, with the daemon's own
# error text, when no daemon can run here.
set -euo pipefail

LOG=${DOCKERD_LOG:-/var/log/dockerd-local.log}
WAIT_S=${DOCKERD_WAIT_S:-30}

answers() { timeout 10 docker info >/dev/null 2>&1; }

if answers; then
  echo "docker daemon: already answering"
  exit 0
fi

if ! command -v dockerd >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || { echo "docker daemon: dockerd is missing and installing docker.io needs root" >&2; exit 1; }
  echo "docker daemon: installing docker.io from Debian"
  timeout 600 apt-get install -y --no-install-recommends docker.io >/dev/null
fi

# Tries one storage driver; succeeds once `docker info` answers and a container can be created.
try_driver() {
  local driver=$1
  echo "docker daemon: starting dockerd (storage driver $driver, no bridge, no iptables), log $LOG"
  # setsid: the daemon outlives the shell that started it and is never in its process group.
  setsid dockerd --storage-driver "$driver" --iptables=false --ip-masq=false --bridge=none \
    >>"$LOG" 2>&1 </dev/null &
  local pid=$!
  for _ in $(seq 1 "$WAIT_S"); do
    if answers; then
      echo "docker daemon: answering (pid $pid, storage driver $driver)"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 1
  done
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  echo "docker daemon: dockerd with $driver did not come up; its last lines:" >&2
  tail -n 5 "$LOG" >&2 || true
  return 1
}

touch "$LOG" && chmod 600 "$LOG"
try_driver overlay2 || try_driver vfs || {
  echo "docker daemon: no Docker daemon can run on this machine (see $LOG)" >&2
  exit 1
}
