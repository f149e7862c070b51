#!/usr/bin/env bash
# Juice Shop documents no credentials for use: customers register with POST /api/Users and log in with
# POST /rest/user/login (its README and the web client). Registers the scan's two customers on a fresh instance.
# Run before the scan with TARGET_URL=http://127.0.0.1:<port>.
set -euo pipefail
B=${TARGET_URL:?TARGET_URL is not set}
for u in alice bob; do
  p="${u^}-pass-1"
  curl -fsS -o /dev/null -X POST "$B/api/Users" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$u@scan.test\",\"password\":\"$p\",\"passwordRepeat\":\"$p\",\"securityQuestion\":{\"id\":1},\"securityAnswer\":\"blue\"}"
done
