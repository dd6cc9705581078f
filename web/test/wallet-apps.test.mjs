// The wallet apps' links (web/src/wallet/walletApps.js) against the apps' documented forms and
// their own worked examples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { walletAppLinks } from '../src/wallet/walletApps.js';

const links = (page, chain = 137) => Object.fromEntries(walletAppLinks(page, chain).map((l) => [l.app, l.href]));

test('MetaMask, Trust Wallet and Coinbase Wallet, in that order', () => {
  assert.deepEqual(
    walletAppLinks('https://lvlx.example/tokenLVLX', 137).map((l) => l.app),
    ['MetaMask', 'Trust Wallet', 'Coinbase Wallet'],
  );
});

test("MetaMask: the page's address without its scheme after /dapp/", () => {
  // MetaMask's example: https://metamask.app.link/dapp/app.uniswap.org
  assert.equal(links('https://app.uniswap.org/').MetaMask, 'https://metamask.app.link/dapp/app.uniswap.org/');
  assert.equal(
    links('https://lvlx.example:8443/tokenLVLX?lng=es#buy').MetaMask,
    'https://metamask.app.link/dapp/lvlx.example:8443/tokenLVLX?lng=es#buy',
  );
});

test("Trust Wallet: the network's SLIP-44 index and the page percent-encoded", () => {
  // Trust's example opens https://compound.finance on Ethereum (coin_id=60).
  assert.equal(
    links('https://compound.finance', 1)['Trust Wallet'],
    'https://link.trustwallet.com/open_url?coin_id=60&url=https%3A%2F%2Fcompound.finance%2F',
  );
  const trust = new URL(links('https://lvlx.example/tokenLVLX?lng=pt&x=1')['Trust Wallet']);
  assert.equal(trust.searchParams.get('coin_id'), '966', 'Polygon');
  assert.equal(trust.searchParams.get('url'), 'https://lvlx.example/tokenLVLX?lng=pt&x=1', 'the whole page, once');
  assert.equal([...trust.searchParams.keys()].length, 2, "the page's own query stays inside url=");
});

test("Coinbase Wallet: cb_url percent-encoded, as its documentation's example", () => {
  assert.equal(
    links('https://nft.coinbase.com/@barmstrong?param1=hello&param2=world')['Coinbase Wallet'],
    'https://go.cb-w.com/dapp?cb_url=https%3A%2F%2Fnft.coinbase.com%2F%40barmstrong%3Fparam1%3Dhello%26param2%3Dworld',
  );
});

test('only web pages', () => {
  assert.throws(() => walletAppLinks('javascript:alert(1)', 137));
  assert.throws(() => walletAppLinks('not a url', 137));
});
