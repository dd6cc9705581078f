// Which browser wallet the app talks to. Wallets announce themselves with EIP-6963 (several
// extensions side by side each answer `eip6963:requestProvider` with their name, icon and
// provider); the person's choice is kept (its rdns) and used while that wallet is there, else the
// only one announced, else `window.ethereum`, the one an extension injected the old way.
import { useSyncExternalStore } from 'react';
import { KEYS, read, write } from '../common/storage.js';

const announced = new Map();
let list = [];
const listeners = new Set();
const changed = () => {
  list = [...announced.values()];
  for (const listener of listeners) listener();
};

if (typeof window !== 'undefined') {
  window.addEventListener('eip6963:announceProvider', (event) => {
    const { info, provider } = event.detail ?? {};
    if (!info?.uuid || !info?.rdns || typeof provider?.request !== 'function') return;
    announced.set(info.uuid, { info, provider });
    changed();
  });
  window.dispatchEvent(new Event('eip6963:requestProvider'));
}

/** The announced wallets: [{info: {uuid, name, icon, rdns}, provider}], in announcement order. */
export const wallets = () => list;

/** The rdns of the wallet chosen, or null. */
export const chosen = () => read(KEYS.walletChoice);

/** Uses the wallet announced as `rdns` from now on (kept across visits). */
export function choose(rdns) {
  write(KEYS.walletChoice, rdns);
  changed();
}

/** The provider the app talks to, or null when the browser has no wallet. */
export function current() {
  const pick = list.find((w) => w.info.rdns === chosen()) ?? (list.length === 1 ? list[0] : null);
  if (pick) return pick.provider;
  if (typeof window === 'undefined') return null;
  return window.ethereum ?? list[0]?.provider ?? null;
}

const subscribe = (listener) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The announced wallets and the rdns of the one in use, kept up to date for a component. */
export function useWallets() {
  const all = useSyncExternalStore(subscribe, wallets);
  const inUse = useSyncExternalStore(subscribe, () => all.find((w) => w.provider === current())?.info.rdns ?? null);
  return { all, inUse };
}
