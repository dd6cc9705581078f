// The browser wallet through EIP-1193 only (the wallet discovery.js picks: EIP-6963, else
// window.ethereum; docs/product/chain.md#the-browser-wallet): accounts, the Polygon network,
// transactions and receipts. Calldata and amounts come from the core; this module only speaks the
// wallet protocol.
import { checksumAddress } from '../core/index.js';
import { current } from './discovery.js';

export const USER_REJECTED = 4001;
const UNKNOWN_CHAIN = 4902;

export const provider = () => current();

/** The wallet error's code, also when a wallet nests it (error.data.originalError). */
export const errorCode = (e) => e?.code ?? e?.data?.originalError?.code ?? e?.error?.code ?? null;
export const isRejection = (e) => errorCode(e) === USER_REJECTED || e?.data?.originalError?.code === USER_REJECTED;
const unknownChain = (e) => e?.code === UNKNOWN_CHAIN || e?.data?.originalError?.code === UNKNOWN_CHAIN;

/** Revert data a wallet passed back with a failed call, wherever it nests it. */
export function revertData(e) {
  for (const candidate of [
    e?.data,
    e?.data?.data,
    e?.error?.data,
    e?.data?.originalError?.data,
    e?.error?.data?.data,
  ]) {
    if (typeof candidate === 'string' && /^0x[0-9a-fA-F]*$/.test(candidate)) return candidate;
  }
  return null;
}

const request = (method, params) => {
  const eth = provider();
  if (!eth) throw Object.assign(new Error('no wallet'), { code: 'no-wallet' });
  return eth.request(params === undefined ? { method } : { method, params });
};

/** The wallet on Polygon (`chain` from the server's settings): switch, or add then switch (4902). */
export async function ensureChain(chain, chainName) {
  try {
    await request('wallet_switchEthereumChain', [{ chainId: chain.chainIdHex }]);
  } catch (e) {
    if (!unknownChain(e)) throw e;
    await request('wallet_addEthereumChain', [
      {
        chainId: chain.chainIdHex,
        chainName,
        nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 },
        rpcUrls: [chain.rpcUrl],
        blockExplorerUrls: chain.explorerUrl ? [chain.explorerUrl] : undefined,
      },
    ]);
    await request('wallet_switchEthereumChain', [{ chainId: chain.chainIdHex }]);
  }
}

/** The account the wallet exposes to this page without asking, checksummed, or null. */
export async function connectedAccount() {
  if (!provider()) return null;
  const [account] = (await request('eth_accounts')) ?? [];
  return account ? checksumAddress(account) : null;
}

/** Asks for the accounts and puts the wallet on Polygon; answers the checksummed account. */
export async function requestAccount(chain, chainName) {
  const [account] = (await request('eth_requestAccounts')) ?? [];
  if (!account) throw Object.assign(new Error('no account'), { code: USER_REJECTED });
  await ensureChain(chain, chainName);
  return checksumAddress(account);
}

export const personalSign = (account, text) => {
  const hex = `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('')}`;
  return request('personal_sign', [hex, account]);
};

/** EIP-712 typed data signed by `account` (what a Safe owner signs: the wallet shows every field). */
export const signTypedData = (account, typed) => request('eth_signTypedData_v4', [account, JSON.stringify(typed)]);

export const ethCall = (to, data, from) => request('eth_call', [{ to, data, ...(from ? { from } : {}) }, 'latest']);
export const sendTransaction = (from, to, data) => request('eth_sendTransaction', [{ from, to, data }]);
export const watchAsset = (options) => request('wallet_watchAsset', { type: 'ERC20', options });

/** Polls for the receipt of `hash` (every second) until mined or `signal` aborts. */
export async function waitForReceipt(hash, signal) {
  for (;;) {
    if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
    const receipt = await request('eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Subscribes to the wallet's account and network changes; answers the unsubscribe. */
export function onWalletChange(listener) {
  const eth = provider();
  if (!eth?.on) return () => {};
  eth.on('accountsChanged', listener);
  eth.on('chainChanged', listener);
  return () => {
    eth.removeListener?.('accountsChanged', listener);
    eth.removeListener?.('chainChanged', listener);
  };
}
