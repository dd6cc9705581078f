#!/usr/bin/env bash
# Quick start: set up what is missing, build, and serve the app on the embedded defaults
# (SQLite in ./data, http://127.0.0.1:8080/; see lvlx.example.toml to change them), with a demo
# admin, a demo user whose sign-in codes land in ./data/outbox, seeded demo data, a local
# Polygon-like chain (anvil, chain id 137, http://127.0.0.1:8545) with the contracts deployed,
# and the demo's identity provider (http://127.0.0.1:8091/verify, not a real verification).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh # runs scripts/setup.sh too; the server is target/quick/lvlx (profile quick)
lvlx=target/quick/lvlx
# Demo accounts (created once) and how to sign in with them, then a small seeded history for
# the admin screens (once: a ledger with rows is left as it is).
"$lvlx" demo
# (Its staking comes from the chain below, through the contracts: `lvlx chain demo`.)
"$lvlx" seed --users 300 --ico-tx 3000 --nft-stakes 0 --lvlx-stakes 0 --seed 1

# The development chain: anvil (npm) on loopback with chain id 137; its state is kept in
# data/anvil-state.json, so purchases survive a restart like the database does. The contracts
# are deployed once; `lvlx chain deploy` writes their addresses as [chain] into ./lvlx.toml (or
# $LVLX_CONFIG) and does nothing when they are already there.
ANVIL_PORT="${LVLX_ANVIL_PORT:-8545}"
mkdir -p data
scripts/anvil.sh --chain-id 137 --host 127.0.0.1 --port "$ANVIL_PORT" \
  --state data/anvil-state.json --state-interval 30 --silent &
anvil_pid=$!
trap 'kill "$anvil_pid" 2>/dev/null; wait "$anvil_pid" 2>/dev/null' EXIT
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$ANVIL_PORT") 2>/dev/null && break
  kill -0 "$anvil_pid" 2>/dev/null || { echo "anvil did not start (is port $ANVIL_PORT taken?)" >&2; exit 1; }
  sleep 0.1
done
# An event counts (final) two blocks below the head; until then members see it as pending.
"$lvlx" chain deploy --rpc "http://127.0.0.1:$ANVIL_PORT" --confirmations 2
# Six dev accounts linked to seeded members buy and stake NFTs and LVLX (once).
"$lvlx" chain demo
# From here the chain mines a block every 2 s, as Polygon does, so events become final in ~4 s.
node -e 'fetch(process.argv[1], {method: "POST", headers: {"content-type": "application/json"},
  body: JSON.stringify({jsonrpc: "2.0", id: 1, method: "evm_setIntervalMining", params: [2]})})
  .then((r) => r.ok || process.exit(1))' "http://127.0.0.1:$ANVIL_PORT"
echo "Wallet: add the network http://127.0.0.1:$ANVIL_PORT (chain id 137) and import an anvil dev account key to buy."
# The demo's identity provider: a local stand-in for Persona's hosted flow and signed webhook
# on 127.0.0.1:8091 (not a real verification; the member approves or declines), so the demo
# member can verify and then claim above the identity threshold. It writes a [kyc] section with
# a new webhook secret into ./lvlx.toml once, before it listens; a provider configured there
# already (Persona's) is left alone and the demo's is not started.
"$lvlx" demo identity &
identity_pid=$!
trap 'kill "$anvil_pid" "$identity_pid" 2>/dev/null; wait "$anvil_pid" "$identity_pid" 2>/dev/null' EXIT
for _ in $(seq 100); do
  (exec 3<>/dev/tcp/127.0.0.1/8091) 2>/dev/null && break
  if ! kill -0 "$identity_pid" 2>/dev/null; then
    wait "$identity_pid" || { echo "the demo's identity provider did not start (is port 8091 taken?)" >&2; exit 1; }
    break
  fi
  sleep 0.1
done
# A support address to show beside a claim that waits for identity verification and in the FAQ
# (a placeholder here: set support_email in lvlx.toml for a real one).
LVLX_SUPPORT_EMAIL="${LVLX_SUPPORT_EMAIL:-support@lvlx.local}" "$lvlx" serve "$@"
