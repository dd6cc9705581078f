// Wallet and chain as a member and an admin use them, in headless Chromium against a server on
// its own anvil chain (contracts deployed by `lvlx chain deploy`). The browser wallet is an
// injected EIP-1193 provider forwarding to anvil, whose dev accounts really sign: connect (4902
// nested, 4001), link by signature, add the token, buy (approve + buy), the purchase live in
// myActives and in the admin ICO table (the purchase by keyboard alone, its steps announced), a
// revert explained, the wallet check.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  consent,
  DEMO_ADMIN,
  DEMO_USER,
  en,
  launchBrowser,
  openPage,
  settled,
  startServer,
  SHOTS,
  es,
  locale,
  memberPage,
} from './harness.mjs';
import { injectWallet } from './wallet.mjs';
import { announced, listen, tabTo } from './keyboard.mjs';
import { calldata, checksumAddress, decodeUint, formatLvlx, shortWalletMessage } from '../../src/core/index.js';

const t = (key, values = {}) => en[key].replace(/\{\{(\w+)\}\}/g, (_, k) => values[k]);

let server;
let browser;
let accounts;
before(async () => {
  server = await startServer({ chain: true });
  browser = await launchBrowser();
  accounts = (await server.anvil.rpc('eth_accounts')).result.map(checksumAddress);
});
after(async () => {
  await browser?.close();
  server?.stop();
});

const toast = (page, kind, text) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).waitFor({ timeout: 15_000 });
/** The owner (the demo Safe, through its one owner) calls `fn` on the sale. */
const owner = (fn) => server.anvil.asOwner(server.settings.chain.icoSale, calldata('IcoSale', fn, []));

test('without a wallet extension, connecting warns to install one; a protected page needs a linked wallet', async () => {
  const page = await memberPage(browser, server, '/dashboard');
  // What a wallet is for and the FAQ's guide; no wallet-app links on a desktop.
  const none = page.getByTestId('no-wallet');
  await none.getByRole('link', { name: en['wallet-guide-link'] }).waitFor();
  assert.equal(await none.getByRole('link', { name: t('wallet-open-in', { app: 'MetaMask' }) }).count(), 0);
  await page.getByRole('button', { name: en['wallet-connect'] }).click();
  await toast(page, 'warning', en['metamask-install']);
  // No wallet linked yet: the menu marks the pages that need one (not the dashboard or the FAQ),
  // and myActives sends the member back to the dashboard with the wallet check's notice, an
  // error toast as commissioned (the page asked for cannot be used).
  const marked = page.getByRole('navigation', { name: en['menu-label'] }).getByTestId('menu-needs-wallet');
  assert.equal(await marked.count(), 9);
  const dashboard = page.getByRole('link', { name: en['menu-dashboard'], exact: true });
  assert.equal(await dashboard.getByTestId('menu-needs-wallet').count(), 0);
  await page.getByRole('link', { name: `${en['menu-myActives']} ${en['menu-needs-wallet']}` }).waitFor();
  await page.goto('/myActives');
  await toast(page, 'error', en['wallet-notexists-title']);
  await page.waitForURL('**/dashboard');
  // The FAQ's text pages are open too (the FAQ's row in the routes table covers them).
  await page.goto('/dashboardfaqs/wallet');
  await settled(page);
  await page.waitForTimeout(1500);
  assert.ok(page.url().endsWith('/dashboardfaqs/wallet'), `a FAQ page needs no wallet (${page.url()})`);
  await page.context().close();
});

test('on a phone without a wallet, the wallet box opens this page in a wallet app', async () => {
  const storage = await server.storageFor(DEMO_USER);
  storage.language = 'es';
  const page = await openPage(browser, server.url, {
    storage,
    cookies: consent,
    viewport: { width: 390, height: 844 },
    phone: true,
  });
  await page.goto('/dashboard');
  await settled(page);
  const none = page.getByTestId('no-wallet');
  await none.waitFor();
  const metamask = await none
    .getByRole('link', { name: es['wallet-open-in'].replace('{{app}}', 'MetaMask') })
    .getAttribute('href');
  const host = new URL(server.url).host;
  assert.equal(metamask, `https://metamask.app.link/dapp/${host}/dashboard`);
  const trust = await none
    .getByRole('link', { name: es['wallet-open-in'].replace('{{app}}', 'Trust Wallet') })
    .getAttribute('href');
  assert.equal(new URL(trust).searchParams.get('url'), `${server.url}/dashboard`);
  await none.getByRole('link', { name: es['wallet-guide-link'] }).waitFor();
  const coinbase = none.getByRole('link', { name: es['wallet-open-in'].replace('{{app}}', 'Coinbase Wallet') });
  assert.equal(new URL(await coinbase.getAttribute('href')).searchParams.get('cb_url'), `${server.url}/dashboard`);
  // No button that can only say "install a browser wallet", which a phone cannot.
  assert.equal(await page.getByRole('button', { name: es['wallet-connect'] }).count(), 0);
  await page.screenshot({ path: join(SHOTS, 'wallet-none-phone-es-390.png'), fullPage: true });
  await page.context().close();
});

test('several browser wallets (EIP-6963): the member picks one by name, the app talks to that one only', async () => {
  const storage = await server.storageFor(DEMO_USER);
  const page = await openPage(browser, server.url, {
    storage,
    cookies: consent,
    viewport: { width: 390, height: 844 },
  });
  await injectWallet(page, server.anvil, { account: accounts[3] });
  // Two extensions announce themselves: the test wallet (also window.ethereum) and another one
  // that declines everything and counts what it is asked.
  await page.addInitScript(() => {
    window.__otherCalls = [];
    const other = {
      async request({ method }) {
        window.__otherCalls.push(method);
        throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
      },
      on() {},
      removeListener() {},
    };
    const icon = 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/%3E';
    const announce = () => {
      for (const [uuid, name, rdns, provider] of [
        ['1b8f5a3c-0000-4000-8000-000000000001', 'Test Wallet', 'org.example.test', window.ethereum],
        ['1b8f5a3c-0000-4000-8000-000000000002', 'Other Wallet', 'org.example.other', other],
      ]) {
        window.dispatchEvent(
          new CustomEvent('eip6963:announceProvider', {
            detail: Object.freeze({ info: { uuid, name, icon, rdns }, provider }),
          }),
        );
      }
    };
    window.addEventListener('eip6963:requestProvider', announce);
    announce();
  });
  await page.goto('/dashboard');
  await settled(page);
  const choice = page.getByTestId('wallet-choice');
  await choice.waitFor();
  assert.equal(await choice.getByRole('radio').count(), 2);
  // window.ethereum's wallet is the one in use until the member picks another.
  assert.ok(await choice.getByRole('radio', { name: 'Test Wallet' }).isChecked());
  await choice.getByRole('radio', { name: 'Other Wallet' }).check();
  await page.getByRole('button', { name: en['wallet-connect'] }).click();
  await toast(page, 'info', en['wallet-request-rejected']);
  assert.ok((await page.evaluate(() => window.__otherCalls)).includes('eth_requestAccounts'));
  // Back to the test wallet: it connects, and the other is asked nothing more.
  const asked = (await page.evaluate(() => window.__otherCalls)).length;
  await choice.getByRole('radio', { name: 'Test Wallet' }).check();
  await page.getByRole('button', { name: en['wallet-connect'] }).click();
  const shown = `${accounts[3].slice(0, 6)}...${accounts[3].slice(-4)}`;
  await page.getByTestId('wallet-connected').getByText(shown).waitFor();
  assert.equal((await page.evaluate(() => window.__otherCalls)).length, asked);
  // The choice is kept.
  await page.reload();
  await page.getByTestId('wallet-choice').waitFor();
  assert.ok(await page.getByTestId('wallet-choice').getByRole('radio', { name: 'Test Wallet' }).isChecked());
  assert.equal(await page.evaluate(() => localStorage.getItem('walletChoice')), 'org.example.test');
  await page.screenshot({ path: join(SHOTS, 'wallet-choice-390.png'), fullPage: true });
  await page.context().close();
});

test('connect (declined, then the network added on a nested 4902), link by signature, add the token', async () => {
  const member = accounts[1];
  const page = await memberPage(browser, server, '/dashboard', { wallet: { account: member, nested: true } });
  const { wallet } = page;
  wallet.refuseNext('eth_requestAccounts');
  await page.getByRole('button', { name: en['wallet-connect'] }).click();
  await toast(page, 'info', en['wallet-request-rejected']);
  assert.equal(await page.locator('.Toastify__toast--error').count(), 0, 'a refusal is not an error');

  await page.getByRole('button', { name: en['wallet-connect'] }).click();
  await page.getByRole('button', { name: en['wallet-link'] }).waitFor();
  assert.equal(wallet.state.added.length, 1, 'the unknown network was added');
  assert.equal(wallet.state.added[0].chainId, '0x89');
  assert.deepEqual(wallet.state.added[0].rpcUrls, [server.anvil.url]);
  assert.equal(wallet.state.chainId, '0x89', 'then switched to');

  await page.getByRole('button', { name: en['wallet-link'] }).click();
  await toast(page, 'success', en['wallet-linked']);
  assert.deepEqual(
    server.sql("SELECT wallet FROM users WHERE email = 'demo@lvlx.local'"),
    [[member]],
    'stored checksummed',
  );
  assert.equal(await page.getByTestId('wallet-linked').innerText(), `${member.slice(0, 6)}...${member.slice(-4)}`);

  await page.getByRole('button', { name: t('add-token.button', { product: 'LVLX' }) }).click();
  await toast(page, 'success', en['add-token.success']);
  const [asset] = wallet.state.watched;
  assert.equal(asset.type, 'ERC20');
  assert.deepEqual(
    { ...asset.options, image: undefined },
    { address: server.settings.chain.lvlx, symbol: 'LVLX', decimals: 18, image: undefined },
  );
  assert.match(asset.options.image, /^http:\/\/127\.0\.0\.1:\d+\/.+\.svg$/);
  // Refused while the success toast still shows: the refusal is said all the same.
  wallet.refuseNext('wallet_watchAsset');
  await page.getByRole('button', { name: t('add-token.button', { product: 'LVLX' }) }).click();
  await toast(page, 'error', en['add-token.error']);
  await page.screenshot({ path: join(SHOTS, 'wallet-dashboard.png'), fullPage: true });
  await page.context().close();
});

test('buy LVLX with USDT: approve then buy, confirmed, live in myActives and in the admin ICO table', async () => {
  const member = accounts[1];
  // The admin watches the ICO table while the member buys.
  const admin = await openPage(browser, server.url, {
    storage: await server.storageFor(DEMO_ADMIN),
    cookies: consent,
    viewport: { width: 1440, height: 1000 },
  });
  await admin.goto('/admin/tables/ICO');
  await settled(admin);
  await admin.getByTestId('ico-general').waitFor();
  // The indexer's standing: read to the head, nothing pending on a chain final at once.
  assert.match(await admin.getByTestId('indexer-standing').innerText(), /· 0 purchases pending ·/);
  const before = Number(
    (
      await admin.locator('[data-testid="ico-general"] [data-key="ico-total-buy"] dd:not(.summary-help)').innerText()
    ).replaceAll(',', ''),
  );

  // Signed in again after linking (the wallet now comes with the account), wallet connected.
  const page = await memberPage(browser, server, '/tokenLVLX', { wallet: { account: member }, fresh: true });
  const { wallet } = page;
  wallet.state.connected = true;
  wallet.state.known.add('0x89');
  wallet.state.chainId = '0x89';
  await page.reload();
  await page.getByTestId('buy-price').waitFor();
  assert.equal(await page.getByTestId('buy-price').innerText(), '1 LVLX = 0.1 USDT');
  assert.equal(await page.getByTestId('buy-usdt-balance').innerText(), '1,000,000.00 USDT');

  // Typing LVLX computes the USDT (the core, at the on-chain price), and the other way round.
  await page.getByLabel(t('buy-receive', { product: 'LVLX' })).fill('25');
  assert.equal(await page.getByLabel(en['buy-pay']).inputValue(), '2.5');
  await page.getByLabel(en['buy-pay']).fill('2.5');
  assert.equal(await page.getByLabel(t('buy-receive', { product: 'LVLX' })).inputValue(), '25');
  await page.getByLabel(en['buy-pay']).fill('abc');
  await page.locator('#buy-usdt-error', { hasText: /\S/ }).waitFor();
  assert.equal(await page.locator('#buy-lvlx-error').innerText(), '', 'the error sits under the field typed in');
  await page.getByLabel(t('buy-receive', { product: 'LVLX' })).fill('9'.repeat(17));
  await page.locator('#buy-lvlx-error', { hasText: en['buy-amount-too-large'] }).waitFor();
  // More than the wallet holds: said beside what is paid, the button off with its reason.
  await page.getByLabel(en['buy-pay']).fill('2000000');
  await page.locator('#buy-usdt-error', { hasText: en['chain-insufficient-balance'] }).waitFor();
  assert.ok(await page.locator('.buy-form button[type="submit"]').isDisabled());
  assert.equal(await page.getByTestId('buy-reason').innerText(), en['buy-fix-amount']);
  // Max pays the whole balance; the summary says what is paid, got and at what price.
  await page.getByRole('button', { name: en['staking-max'] }).click();
  assert.equal(await page.getByLabel(en['buy-pay']).inputValue(), '1000000');
  assert.match(
    await page.getByTestId('buy-summary').innerText(),
    /1,000,000\.00 USDT[\s\S]*10,000,000\.00 LVLX[\s\S]*0\.1 USDT/,
  );
  await page.getByLabel(en['buy-pay']).fill('2.5');

  // Declined in the wallet: a calm note, nothing sent.
  wallet.refuseNext('eth_sendTransaction');
  await page.getByRole('button', { name: en['buy-approve-and-buy'] }).click();
  await page.locator('[data-testid="tx-status"][data-state="rejected"]').waitFor();
  assert.match(await page.getByTestId('tx-status').innerText(), new RegExp(en['tx-rejected']));

  // Then by keyboard alone: the amount, the button, and every step announced as it happens.
  await tabTo(page, page.getByLabel(en['buy-pay']), { back: true });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('2.5');
  await tabTo(page, page.getByRole('button', { name: en['buy-approve-and-buy'] }));
  await listen(page);
  await page.keyboard.press('Enter');
  // Each step in the purchase's own words (web/src/wallet/actions.js): what is approved, for what.
  const figures = { lvlx: '25.00', product: 'LVLX', usdt: '2.50' };
  await announced(page, t('tx-buy-lvlx-approving', figures));
  await announced(page, t('tx-buy-lvlx-sending', figures));
  await page.locator('[data-testid="tx-status"][data-state="confirmed"]').waitFor({ timeout: 30_000 });
  await announced(page, t('tx-confirmed', figures));
  const hash = await page.getByTestId('tx-hash').getAttribute('data-hash');
  assert.match(await page.getByTestId('tx-hash').innerText(), /^0x[0-9a-f]{8}…[0-9a-f]{8}$/);
  assert.match(hash, /^0x[0-9a-f]{64}$/);
  assert.equal(
    await page.getByRole('link', { name: en['tx-explorer'] }).getAttribute('href'),
    `https://polygonscan.com/tx/${hash}`,
  );
  await announced(page, en['tx-recorded'], { timeout: 15_000 });
  await page.screenshot({ path: join(SHOTS, 'wallet-buy-confirmed.png'), fullPage: true });
  assert.deepEqual(server.sql(`SELECT amount, usdt_paid FROM ico_transactions WHERE tx_hash = '${hash}'`), [
    ['25000000000000000000', '2500000'],
  ]);

  // The admin's table took the purchase in without a reload.
  await admin.waitForFunction(
    ([n]) =>
      Number(
        document
          .querySelector('[data-testid="ico-general"] [data-key="ico-total-buy"] dd:not(.summary-help)')
          ?.innerText.replaceAll(',', ''),
      ) === n,
    [before + 1],
    { timeout: 20_000 },
  );
  await admin.getByText('demo@lvlx.local').first().waitFor();
  await admin.context().close();

  // myActives, reached through the menu: the money account and the purchase, from the index;
  // the wallet line is the chain's balance, the same figure the token page shows.
  await page.getByRole('link', { name: en['menu-myActives'] }).click();
  await page.getByTestId('account-bought').filter({ hasText: '25.00 LVLX' }).waitFor();
  const onChain = await server.anvil.rpc('eth_call', [
    { to: server.settings.chain.lvlx, data: calldata('LVLX', 'balanceOf', [accounts[1]]) },
    'latest',
  ]);
  assert.equal(await page.getByTestId('account-wallet').innerText(), `${formatLvlx(decodeUint(onChain.result))} LVLX`);
  const row = page.locator('[data-testid="actives-history"] .rdt_TableRow').first();
  assert.match(
    await row.innerText(),
    new RegExp(`${en['history-kind-purchase']}[\\s\\S]*25\\.00 LVLX[\\s\\S]*2\\.50 USDT`),
  );
  // The history as CSV, written by the core: exact decimals, UTC time, the transaction.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('history-csv-machine').click(),
  ]);
  assert.equal(download.suggestedFilename(), 'lvlx-history.csv');
  const csv = readFileSync(await download.path(), 'utf8').split('\n');
  assert.equal(csv[0], 'date_utc,type,amount,asset,usdt_value,tx_hash,status');
  assert.match(csv[1], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,purchase,25,LVLX,2\.5,0x[0-9a-f]{64},final$/);
  await page.screenshot({ path: join(SHOTS, 'wallet-my-actives.png'), fullPage: true });

  // A second purchase while myActives is open appears there live: a second tab keeps the page
  // open, never reloaded, while this one buys.
  const watcher = await page.context().newPage();
  await watcher.goto('/myActives');
  await watcher.getByTestId('account-bought').filter({ hasText: '25.00 LVLX' }).waitFor({ timeout: 15_000 });
  await page.goto('/tokenLVLX');
  // The form takes an amount once the chain's figures are in: typed before, under load, it was
  // lost (the page then said "Enter what you pay" and the button stayed "Buy").
  await page.getByTestId('buy-price').waitFor();
  await page.getByLabel(en['buy-pay']).fill('1');
  // If the button still says "Buy", what the page and the wallet said is kept.
  await page
    .getByRole('button', { name: en['buy-approve-and-buy'] })
    .waitFor({ timeout: 30_000 })
    .catch(async (e) => {
      await page.screenshot({ path: join(SHOTS, 'wallet-second-purchase-failed.png'), fullPage: true });
      const form = await page.locator('main').innerText();
      throw new Error(`${e.message}\npage: ${form}\nwallet calls: ${wallet.state.calls.slice(-20).join(', ')}`);
    });
  await page.getByRole('button', { name: en['buy-approve-and-buy'] }).click();
  await page.locator('[data-testid="tx-status"][data-state="confirmed"]').waitFor({ timeout: 30_000 });
  await watcher.getByTestId('account-bought').filter({ hasText: '35.00 LVLX' }).waitFor({ timeout: 15_000 });
  await page.context().close();
});

test('myActives says each purchase is final, in es and pt on a phone and en on a wide screen', async () => {
  for (const [language, width] of [
    ['es', 390],
    ['pt', 390],
    ['en', 1440],
  ]) {
    const storage = await server.storageFor(DEMO_USER);
    storage.language = language;
    const page = await openPage(browser, server.url, { storage, cookies: consent, viewport: { width, height: 900 } });
    await injectWallet(page, server.anvil, { account: accounts[1] });
    await page.goto('/myActives');
    await settled(page);
    // The run command's chain counts an event two blocks below the head; this one at once.
    // A table on the wide screen, cards on the phone.
    const first = page.locator('[data-testid="actives-history"]').locator('.rdt_TableRow, .row-card').first();
    await first.getByText(locale(language)['chain-final']).waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `no sideways scroll (${wide}px)`);
    await page.screenshot({ path: join(SHOTS, `my-actives-${language}-${width}.png`), fullPage: true });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a paused sale is explained before anything is sent; another account in the wallet sends the member to the dashboard', async () => {
  const member = accounts[1];
  const page = await memberPage(browser, server, '/tokenLVLX', { wallet: { account: member } });
  const { wallet } = page;
  wallet.state.connected = true;
  wallet.state.known.add('0x89');
  wallet.state.chainId = '0x89';
  await page.reload();
  await page.getByTestId('buy-price').waitFor();
  await owner('pause');
  await page.getByLabel(en['buy-pay']).fill('1');
  const sentBefore = wallet.state.calls.filter((m) => m === 'eth_sendTransaction').length;
  await page.getByRole('button', { name: /buy/i }).click();
  await page.locator('[data-testid="tx-status"][data-state="failed"]').waitFor({ timeout: 20_000 });
  assert.match(await page.getByTestId('tx-status').innerText(), new RegExp(en['chain-sale-paused']));
  const sent = wallet.state.calls.filter((m) => m === 'eth_sendTransaction').length - sentBefore;
  assert.ok(sent <= 1, 'at most the approval was sent, never the purchase');
  await owner('unpause');

  await wallet.switchAccount(accounts[2]);
  await toast(page, 'error', t('wallet-incorrect', { wallet: shortWalletMessage(member) }));
  await page.waitForURL('**/dashboard');
  await page.locator('[data-testid="wallet-connected"]', { hasText: accounts[2].slice(-4) }).waitFor();
  await page.getByText(en['wallet-mismatch']).waitFor();
  await page.context().close();
});

test("a balance read the wallet's node fails is said, then read again by itself", async () => {
  const page = await memberPage(browser, server, '/tokenLVLX', { wallet: { account: accounts[1] } });
  const { wallet } = page;
  wallet.state.connected = true;
  wallet.state.known.add('0x89');
  wallet.state.chainId = '0x89';
  wallet.state.down.add('eth_call');
  await page.reload();
  await page.getByText(en['chain-read-failed']).waitFor();
  // The node answers again: the page reads again without the member doing anything.
  wallet.state.down.delete('eth_call');
  await page.getByTestId('buy-usdt-balance').waitFor({ timeout: 20_000 });
  assert.equal(await page.getByText(en['chain-read-failed']).count(), 0);
  await page.context().close();
});

test('a load that fails says what failed, in words, and loads again on retry', async () => {
  const page = await openPage(browser, server.url, {
    storage: await server.storageFor(DEMO_USER),
    cookies: consent,
    viewport: { width: 390, height: 844 },
  });
  await injectWallet(page, server.anvil, { account: accounts[1] });
  // The server cannot be reached for the money account (the browser's request fails).
  await page.route('**/api/v1/dashboard', (route) => route.abort('connectionrefused'));
  await page.goto('/myActives');
  const failed = page.getByTestId('actives-balance').getByTestId('load-failed');
  await failed.waitFor();
  assert.equal(await failed.locator('p').innerText(), en['error-network']);
  await page.unroute('**/api/v1/dashboard');
  await failed.getByRole('button', { name: en['load-retry'] }).click();
  await page.getByTestId('account-total').waitFor();
  assert.equal(await failed.count(), 0);
  await page.context().close();
});
