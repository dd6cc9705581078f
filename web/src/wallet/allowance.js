// "Approve if the allowance is short, then act": the transactions of an action that spends an
// ERC-20 amount, or moves ERC-1155 NFTs, on the member's behalf, for useChainAction.
import { calldata, decodeUint } from '../core/index.js';
import * as eth from './eip1193.js';

/**
 * `[approve?, action]`: an approval of exactly `amount` for `spender` first when `account`'s
 * allowance of `token` is short of it, then `action` ({to, data, simulate?}).
 */
export async function spending(account, { token, spender, amount }, action) {
  const allowance = decodeUint(await eth.ethCall(token, calldata('LVLX', 'allowance', [account, spender])));
  const txs = [];
  if (BigInt(allowance) < BigInt(amount))
    txs.push({ to: token, data: calldata('LVLX', 'approve', [spender, amount]), approval: true });
  txs.push(action);
  return txs;
}

/**
 * `[approveAll?, action]`: `operator` approved for all of `account`'s NFTs of `collection` first
 * when it is not yet, then `action` ({to, data, simulate?}).
 */
export async function operating(account, { collection, operator }, action) {
  const approved = decodeUint(
    await eth.ethCall(collection, calldata('LevelNFT', 'isApprovedForAll', [account, operator])),
  );
  const txs = [];
  if (approved === '0')
    txs.push({ to: collection, data: calldata('LevelNFT', 'setApprovalForAll', [operator, 'true']), approval: true });
  txs.push(action);
  return txs;
}
