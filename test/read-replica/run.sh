#!/usr/bin/env bash
# `npm run test:read-replica`: makes a streaming replica of the test server, runs the suites that
# need one against it, and removes the replica whatever happened (bounded: pg_ctl waits at most 30 s).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v pg_basebackup >/dev/null || [ -x /usr/lib/postgresql/15/bin/pg_basebackup ] || apt-get install -y postgresql-15
dir=$(mktemp -d /tmp/ccr-read-replica-XXXXXX)
trap '"$here/replica-cluster.sh" down "$dir" || true' EXIT
port=$("$here/replica-cluster.sh" up "$dir")
export READ_REPLICA_DIR="$dir"
export READ_REPLICA_URL="postgres://postgres@127.0.0.1:$port/test"
npx vitest run --config vitest.read-replica.config.ts "$@"
