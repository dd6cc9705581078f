// The words of every chain action, from one table keyed by the action: what an approval allows
// (which token or NFTs, for what), what is being checked, what was sent and what was confirmed.
// A staking screen once said "Approving USDT… Purchase sent" while the member approved NFTs and
// staked them; the wallet's prompt then did not match the screen. useChainAction carries the
// action's name and figures, TxStatus says them; web/test/chain-actions.test.mjs checks every
// action in every language (the keys exist, the figures fill them, an approval names its token).
// No words here: only translation keys and the names of the figures each one needs.

/**
 * action → {approves: what an approval step lets the contract take ('USDT', 'LVLX', 'NFT'; null
 * when the action has no approval), values: the figures its words need, keys by step}.
 */
export const CHAIN_ACTIONS = {
  'buy-lvlx': {
    approves: 'USDT',
    values: ['usdt', 'lvlx', 'product'],
    keys: {
      approving: 'tx-buy-lvlx-approving',
      simulating: 'tx-buy-lvlx-checking',
      sending: 'tx-buy-lvlx-sending',
      confirmed: 'tx-confirmed',
    },
  },
  'buy-nft': {
    approves: 'USDT',
    values: ['usdt', 'count', 'id'],
    keys: {
      approving: 'tx-buy-nft-approving',
      simulating: 'tx-buy-nft-checking',
      sending: 'tx-buy-nft-sending',
      confirmed: 'nft-bought',
    },
  },
  'stake-nft': {
    approves: 'NFT',
    values: ['count', 'id'],
    keys: {
      approving: 'tx-stake-nft-approving',
      simulating: 'tx-stake-nft-checking',
      sending: 'tx-stake-nft-sending',
      confirmed: 'nft-staked',
    },
  },
  'stake-lvlx': {
    approves: 'LVLX',
    values: ['amount', 'product'],
    keys: {
      approving: 'tx-stake-lvlx-approving',
      simulating: 'tx-stake-lvlx-checking',
      sending: 'tx-stake-lvlx-sending',
      confirmed: 'tx-stake-lvlx-confirmed',
    },
  },
  'withdraw-interest': {
    approves: null,
    values: [],
    keys: {
      simulating: 'tx-interest-checking',
      sending: 'tx-interest-sending',
      confirmed: 'staking-interest-confirmed',
    },
  },
  release: {
    approves: null,
    values: [],
    keys: {
      simulating: 'tx-release-checking',
      sending: 'tx-release-sending',
      confirmed: 'staking-released-confirmed',
    },
  },
  'buy-node': {
    approves: 'USDT',
    values: ['usdt'],
    keys: {
      approving: 'tx-buy-node-approving',
      simulating: 'tx-buy-node-checking',
      sending: 'tx-buy-node-sending',
      confirmed: 'node-bought',
    },
  },
  claim: {
    approves: null,
    values: ['amount', 'product'],
    keys: {
      simulating: 'tx-claim-checking',
      sending: 'tx-claim-sending',
      confirmed: 'claims-sent',
    },
  },
  'owner-execute': {
    approves: null,
    values: [],
    keys: {
      simulating: 'tx-owner-checking',
      sending: 'tx-owner-sending',
      confirmed: 'owner-proposals-executed',
    },
  },
};

/** The steps whose words depend on the action (rejected and failed read the same for all). */
export const ACTION_STEPS = ['approving', 'simulating', 'sending', 'confirmed'];

/**
 * The words of `action` at `state` with its figures (`values`, already formatted), or null when
 * the state has none of its own. An unknown action or step is a programming error: it throws.
 */
export function actionWords(t, action, state, values = {}) {
  if (!ACTION_STEPS.includes(state)) return null;
  const entry = CHAIN_ACTIONS[action];
  if (!entry) throw new Error(`unknown chain action ${action}`);
  const key = entry.keys[state];
  if (!key) throw new Error(`chain action ${action} has no ${state} step`);
  return t(key, values);
}
