#!/usr/bin/env bash
# vAPI publishes no credentials: each lab has its own users, made with its sign-up (POST /vapi/apiN/user, as the
# Postman collection shows). The labs that authenticate with base64(username:password) in Authorization-Token
# (API1, API5, API6, API7, per the documentation page) each get the same two users, so one credential per
# identity works across them. Run before the scan with TARGET_URL=http://127.0.0.1:<port>.
set -euo pipefail
B=${TARGET_URL:?TARGET_URL is not set}/vapi
post() { curl -fsS -o /dev/null -X POST "$B/$1" -H 'Content-Type: application/json' -H 'Accept: application/json' -d "$2"; }
for u in alice bob; do
  p="${u^}-pass-1"
  post api1/user "{\"username\":\"vapi-$u\",\"name\":\"${u^} Tester\",\"course\":\"security\",\"password\":\"$p\"}"
  post api5/user "{\"username\":\"vapi-$u\",\"password\":\"$p\",\"name\":\"${u^} Tester\",\"address\":\"1 Test Street\",\"mobileno\":\"8000000001\"}"
  post api6/user "{\"name\":\"${u^} Tester\",\"username\":\"vapi-$u\",\"password\":\"$p\"}"
  post api7/user "{\"username\":\"vapi-$u\",\"password\":\"$p\"}"
done
