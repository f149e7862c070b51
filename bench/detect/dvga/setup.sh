#!/usr/bin/env bash
# DVGA documents no credentials for use: accounts are made with its createUser mutation and sign in with its
# login mutation (its README). Registers the scan's two users on a fresh instance.
# Run before the scan with TARGET_URL=http://127.0.0.1:<port>.
set -euo pipefail
B=${TARGET_URL:?TARGET_URL is not set}
for u in alice bob; do
  out=$(curl -fsS -X POST "$B/graphql" -H 'Content-Type: application/json' \
    -d "{\"query\":\"mutation { createUser(userData: {username: \\\"$u\\\", email: \\\"$u@scan.test\\\", password: \\\"${u^}-pass-1\\\"}) { user { id username } } }\"}")
  case "$out" in *'"errors"'*) echo "createUser $u failed: $out" >&2; exit 1 ;; esac
done
