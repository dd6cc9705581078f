#!/usr/bin/env bash
# Gas per member action of the staking contracts on anvil, beside Synthetix StakingRewards'
# figures (backend/tests/suite/staking.rs, which also asserts each stays below its anchor).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test -p lvlx-backend --test suite staking::gas_per_member_action -- --nocapture 2>&1 | grep -E "^(action|NFT|LVLX) "
