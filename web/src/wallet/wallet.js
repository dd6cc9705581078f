// What the app does with the browser wallet, with the toasts of docs/product/api.md#errors: connect
// (metamask-install / metamask-error; a rejection is a calm note), link by a signed EIP-4361
// message, add the token, and the wallet the account has linked.
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { toast } from 'react-toastify';
import i18n from '../common/i18n.js';
import settings from '../common/settings.js';
import { api } from '../common/client.js';
import { calldata, decodeUint, LVLX_DECIMALS, siweMessage } from '../core/index.js';
import { KEYS, readJson, writeJson } from '../common/storage.js';
import { toastError } from '../common/toast.jsx';
import * as eth from './eip1193.js';
import { useWallets } from './discovery.js';
import tokenLogo from '../../assets/favicon.svg';

/** The wallet linked to the signed-in account (stored at sign-in and on linking), or null. */
export const storedWallet = () => readJson(KEYS.userInfo)?.wallet ?? null;

// Who shows something that depends on the linked wallet hears when it is linked, so no figure
// keeps saying "no wallet linked" under a box that says it is (until a reload, once).
const linkListeners = new Set();
const onLinked = (listener) => {
  linkListeners.add(listener);
  return () => linkListeners.delete(listener);
};

/** The linked wallet (or null), kept current when this page links one. */
export const useLinkedWallet = () => useSyncExternalStore(onLinked, storedWallet, () => null);

function storeWallet(wallet) {
  const info = readJson(KEYS.userInfo) ?? {};
  writeJson(KEYS.userInfo, { ...info, wallet });
  writeJson(KEYS.tokenData, { address: wallet });
  for (const listener of linkListeners) listener();
}

/** A wallet failure as the user should read it: calm when they said no. */
function walletFailed(e, rejectedKey) {
  if (eth.isRejection(e)) {
    toast.info(i18n.t(rejectedKey), { toastId: rejectedKey });
  } else {
    console.warn('wallet request failed', e);
    toast.error(i18n.t('metamask-error'), { toastId: 'metamask-error' });
  }
}

function ready() {
  if (!eth.provider()) {
    toast.warn(i18n.t('metamask-install'), { toastId: 'metamask-install' });
    return false;
  }
  if (!settings.chain) {
    toast.error(i18n.t('chain-unavailable'), { toastId: 'chain-unavailable' });
    return false;
  }
  return true;
}

/** Connects the wallet on Polygon; answers the account or null (after telling the user why). */
export async function connectWallet() {
  if (!ready()) return null;
  try {
    return await eth.requestAccount(settings.chain, i18n.t('chain-name'));
  } catch (e) {
    walletFailed(e, 'wallet-request-rejected');
    return null;
  }
}

/** Whether `e` is the member declining in their wallet (nothing to tell them). */
export const isRejection = eth.isRejection;

/** `typed` (EIP-712) signed by `account` on Polygon; throws what the wallet throws. */
export async function signTyped(account, typed) {
  await eth.ensureChain(settings.chain, i18n.t('chain-name'));
  return eth.signTypedData(account, typed);
}

/** A uint a contract's view function answers (decimal text): `fn(args)` of `contract` at `to`. */
export async function readUint(to, contract, fn, args) {
  return decodeUint(await eth.ethCall(to, calldata(contract, fn, args)));
}

/**
 * Links `account` to the signed-in account by signature; answers {wallet} (stored), {taken:
 * account} when another account has linked that wallet (the page says what to do, not a toast), or
 * null (the member declined, or a toast said why).
 */
export async function linkWallet(account) {
  try {
    const { nonce, issuedAt, expirationTime, chainId } = await api('wallet/nonce', { method: 'POST' });
    const message = siweMessage({
      domain: location.host,
      address: account,
      statement: i18n.t('wallet-link-statement'),
      uri: location.origin,
      chainId,
      nonce,
      issuedAt,
      expirationTime,
    });
    let signature;
    try {
      signature = await eth.personalSign(account, message);
    } catch (e) {
      walletFailed(e, 'wallet-sign-rejected');
      return null;
    }
    const { wallet } = await api('wallet/link', { method: 'POST', body: { message, signature } });
    storeWallet(wallet);
    toast.success(i18n.t('wallet-linked'), { toastId: 'wallet-linked' });
    return { wallet };
  } catch (e) {
    if (e?.code === 'error-wallet-taken') return { taken: account };
    toastError(e);
    return null;
  }
}

/** Asks the wallet to watch the token (docs/product/chain.md#the-browser-wallet). */
export async function addToken() {
  if (!ready()) return;
  try {
    await eth.ensureChain(settings.chain, i18n.t('chain-name'));
    const added = await eth.watchAsset({
      address: settings.chain.lvlx,
      symbol: settings.product,
      decimals: LVLX_DECIMALS,
      image: settings.chain.tokenImage || new URL(tokenLogo, location.origin).href,
    });
    if (added === false) throw Object.assign(new Error('declined'), { code: eth.USER_REJECTED });
    toast.success(i18n.t('add-token.success'), { toastId: 'add-token' });
  } catch (e) {
    console.warn('add token failed', e);
    // Its own id: a refusal within the success toast's 6 s must still show.
    toast.error(i18n.t('add-token.error'), { toastId: 'add-token-error' });
  }
}

/** The account the wallet exposes to this page, kept current on account and network changes. */
export function useConnectedAccount() {
  const [account, setAccount] = useState(null);
  // Read again, and listened to anew, when the person picks another of several wallets.
  const { inUse } = useWallets();
  const refresh = useCallback(async () => {
    try {
      setAccount(await eth.connectedAccount());
    } catch {
      setAccount(null);
    }
  }, []);
  useEffect(() => {
    refresh();
    return eth.onWalletChange(refresh);
  }, [refresh, inUse]);
  return [account, setAccount];
}
