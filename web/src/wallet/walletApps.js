// Links that open a page inside a wallet app's own browser, where the wallet is injected: for a
// phone, whose browser has no wallet extension. Each is the link the app's developer pages
// document:
// - MetaMask: https://metamask.app.link/dapp/<host + path + query> (the page's address without
//   its scheme);
// - Trust Wallet: https://link.trustwallet.com/open_url?coin_id=<SLIP-44 index of the network>&url=<the page, percent-encoded>;
// - Coinbase Wallet: https://go.cb-w.com/dapp?cb_url=<the page, percent-encoded>.
// A pure rule (web/test/wallet-apps.test.mjs): no words here, the buttons' text is in locales/.

/** SLIP-44 coin indexes of the EVM networks a wallet app opens on (Polygon 966, else Ethereum's 60). */
const SLIP44 = { 137: 966, 80002: 966, 1: 60 };

/**
 * [{app, href}] opening `page` (an absolute http(s) address) in MetaMask, Trust Wallet and
 * Coinbase Wallet, on chain `chainId`. The page's fragment is kept where the link can carry it.
 */
export function walletAppLinks(page, chainId) {
  const url = new URL(page);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`not a web page: ${page}`);
  const whole = url.href;
  const coin = SLIP44[chainId] ?? 60;
  return [
    { app: 'MetaMask', href: `https://metamask.app.link/dapp/${url.host}${url.pathname}${url.search}${url.hash}` },
    {
      app: 'Trust Wallet',
      href: `https://link.trustwallet.com/open_url?coin_id=${coin}&url=${encodeURIComponent(whole)}`,
    },
    { app: 'Coinbase Wallet', href: `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(whole)}` },
  ];
}

/**
 * Whether this browser is a phone's without a wallet: a coarse pointer (a touch screen) and no
 * provider injected. EIP-6963 discovery stays what a desktop uses.
 */
export const phoneWithoutWallet = (hasProvider) =>
  !hasProvider && typeof window !== 'undefined' && Boolean(window.matchMedia?.('(pointer: coarse)').matches);
