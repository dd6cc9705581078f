// A new member's first steps where they used to end in a dead end or a contradiction, in headless
// Chromium against a server on its own anvil chain, with a seeded network whose node holders have
// earned nothing yet (no purchase settled): a broken referral link stops on load with what to do;
// the node page's earnings stay true when nobody has earned; a wallet another account holds says
// what to do next; linking a wallet refreshes every figure that depends on it; the token page
// without a wallet shows the price, a quote and the terms, and on a phone opens in the wallet apps.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { join } from 'node:path';
import { DEMO_USER, en, launchBrowser, startServer, SHOTS, locale, memberPage } from './harness.mjs';

import { calldata, checksumAddress } from '../../src/core/index.js';

const WORDS = { en, es: locale('es'), pt: locale('pt') };
const fill = (text, values = {}) => text.replace(/\{\{(\w+)\}\}/g, (_, k) => values[k]);
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1440, height: 1000 };
const LVLX = 10n ** 18n;
const chain = () => server.settings.chain;
// The screens each language is looked at: es and pt on a phone, en on a wide screen.
const VIEWS = [
  ['es', PHONE],
  ['pt', PHONE],
  ['en', WIDE],
];

let server;
let browser;
let accounts;
before(async () => {
  server = await startServer({
    chain: true,
    seed: ['--users', '40', '--ico-tx', '0', '--nft-stakes', '0', '--lvlx-stakes', '0', '--seed', '3'],
  });
  browser = await launchBrowser();
  accounts = (await server.anvil.rpc('eth_accounts')).result.map(checksumAddress);
});
after(async () => {
  await browser?.close();
  server?.stop();
});

const visit = (route, { language = 'en', viewport = WIDE, account = null, wallet, ...options } = {}) =>
  memberPage(browser, server, route, {
    ...options,
    language,
    viewport,
    account,
    wallet: wallet && { account: wallet },
  }).then((page) => ({ page, wallet: page.wallet }));
const noSideways = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
const shot = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

test('a referral link that belongs to no account stops on load and says to ask for a new one', async () => {
  const broken = 'f'.repeat(32);
  for (const [language, viewport] of VIEWS) {
    const words = WORDS[language];
    const { page } = await visit(`/register/referred/${broken}`, { language, viewport });
    const notice = page.getByTestId('referral-broken');
    await notice.waitFor();
    assert.equal(await notice.innerText(), words['register-link-broken']);
    assert.equal(await page.locator('h1').innerText(), words['register-link-broken-title']);
    // Nothing to fill in: no "you were invited", no step counter, no field.
    assert.equal(await page.locator('#field-names, #field-email, .step').count(), 0);
    assert.equal(await page.getByText(words['register-invited']).count(), 0);
    await page.getByRole('link', { name: words['register-have-account'] }).waitFor();
    assert.ok(await noSideways(page), `${language} at ${viewport.width} px`);
    await shot(page, `first-steps-referral-broken-${language}-${viewport.width}`);
    await page.context().close();
  }
  // A link that works still opens the form, with the inviter's name.
  const { page } = await visit(`/register/referred/${server.userReferral}`);
  await page.locator('#field-names').waitFor();
  assert.equal(await page.getByTestId('referral-broken').count(), 0);
  await page.context().close();
});

test('a wallet another account holds says what to do next, beside the button', async () => {
  // Another member (a seeded one) has linked anvil's account 5.
  const [[other]] = server.sql("SELECT email FROM users WHERE email NOT LIKE '%@lvlx.local' LIMIT 1");
  server.giveWallet(other, accounts[5]);
  const { page, wallet } = await visit('/dashboard', {
    language: 'es',
    viewport: PHONE,
    account: DEMO_USER,
    wallet: accounts[5],
  });
  const es = WORDS.es;
  wallet.state.known.add('0x89');
  wallet.state.chainId = '0x89';
  // Before linking, the money account cannot read a wallet: it says so.
  const walletLine = page.getByTestId('account-wallet');
  await walletLine.getByText(es['account-wallet-not-linked']).waitFor();
  await page.getByRole('button', { name: es['wallet-connect'] }).click();
  await page.getByRole('button', { name: es['wallet-link'] }).click();
  // Not a toast over the header: beside the button, the wallet and the two ways on.
  const taken = page.getByTestId('wallet-taken');
  await taken.waitFor();
  assert.equal(await page.locator('.Toastify__toast--error').count(), 0, 'no bare error toast');
  assert.match(await taken.innerText(), new RegExp(es['wallet-taken']));
  assert.equal(await taken.getByTestId('wallet-taken-address').innerText(), accounts[5]);
  await taken.getByText(es['wallet-taken-other']).waitFor();
  await taken.getByText(es['wallet-taken-support-registered']).waitFor();
  assert.ok(await noSideways(page), 'the whole address wraps inside the box at 390 px');
  await shot(page, 'first-steps-wallet-taken-es-390');
  // The member switches to another wallet in the app: the refusal, about the other one, goes.
  await wallet.switchAccount(accounts[6]);
  await taken.waitFor({ state: 'detached' });
  await page.context().close();
});

test('a page that needs a wallet sends a new member to the dashboard saying why, with the way to link one', async () => {
  for (const [language, viewport] of VIEWS) {
    const words = WORDS[language];
    const { page } = await visit('/staking', { language, viewport, account: DEMO_USER, wallet: accounts[7] });
    await page.waitForURL('**/dashboard');
    // Said where the member lands, until a wallet is linked (not only a toast gone in 5 s):
    // which page, why, and the wallet box's action beside it.
    const needed = page.getByTestId('wallet-needed');
    await needed.waitFor();
    assert.equal(
      await needed.innerText(),
      fill(words['wallet-needed'], { page: fill(words['menu-staking'], { product: 'LVLX' }) }),
    );
    const card = page.getByTestId('wallet-card');
    assert.ok(await card.getByTestId('wallet-needed').count(), 'in the wallet box');
    await card.getByRole('button', { name: words['wallet-connect'] }).waitFor();
    assert.ok(await noSideways(page), `${language} at ${viewport.width} px`);
    await shot(page, `first-steps-wallet-needed-${language}-${viewport.width}`);
    await page.context().close();
  }
});

test('linking a wallet refreshes every figure that depends on it, without a reload', async () => {
  const es = WORDS.es;
  const { page, wallet } = await visit('/dashboard', {
    language: 'es',
    viewport: PHONE,
    account: DEMO_USER,
    wallet: accounts[6],
  });
  wallet.state.known.add('0x89');
  wallet.state.chainId = '0x89';
  const walletLine = page.getByTestId('account-wallet');
  // Before linking, the money account says the true state: no wallet linked yet (not "could not
  // be read, or the network is not answering"), with the way to link one.
  await walletLine.getByText(es['account-wallet-not-linked']).waitFor();
  assert.equal(
    await walletLine.getByRole('link', { name: es['account-wallet-link'] }).getAttribute('href'),
    '#wallet-card-title',
  );
  await page.getByTestId('money-account').getByText(es['account-total-not-linked'], { exact: false }).waitFor();
  assert.equal(await page.getByText(es['account-wallet-unread']).count(), 0);
  assert.ok((await page.getByTestId('menu-needs-wallet').count()) > 0);
  await page.getByRole('button', { name: es['wallet-connect'] }).click();
  // The money account reads the new wallet at once, as the wallet box says it is linked.
  await page.getByRole('button', { name: es['wallet-link'] }).click();
  await page
    .getByTestId('wallet-linked')
    .filter({ hasText: accounts[6].slice(-4) })
    .waitFor();
  await walletLine.filter({ hasText: /LVLX/ }).waitFor({ timeout: 15_000 });
  assert.equal(await walletLine.getByText(es['account-wallet-not-linked']).count(), 0);
  // The menu no longer marks pages as needing a wallet.
  assert.equal(await page.getByTestId('menu-needs-wallet').count(), 0);
  await shot(page, 'first-steps-wallet-linked-es-390');

  // In the same session, the first LVLX stake: once confirmed it is listed under My positions
  // without a reload (it once waited for one after a wallet linked in the session).
  await server.anvil.rpc('eth_sendTransaction', [
    {
      from: accounts[0],
      to: chain().lvlx,
      data: calldata('LVLX', 'transfer', [accounts[6], (100n * LVLX).toString()]),
    },
  ]);
  await page.getByRole('button', { name: es['menu-open'] }).click();
  await page.getByRole('link', { name: es['menu-staking'], exact: true }).click();
  const amount = page.getByLabel(fill(es['staking-amount'], { product: 'LVLX' }));
  await amount.fill('20');
  await page.getByRole('button', { name: es['staking-stake'], exact: true }).click();
  await page.locator('[data-testid="tx-status"][data-state="confirmed"]').waitFor({ timeout: 30_000 });
  // A phone shows each position as a card (a wide screen as a table row).
  const row = page.getByTestId('lvlx-positions').locator('.row-card');
  await row.first().waitFor({ timeout: 10_000 });
  assert.equal(await row.count(), 1);
  await shot(page, 'first-steps-first-stake-es-390');
  // One precision for a reward figure, the core's, on every page that shows it: six decimals
  // (the row had six, the dashboard two).
  const reward = /^\d[\d.]*,\d{6}\sLVLX$/;
  assert.match(await row.first().getByTestId('position-accrued').innerText(), reward);
  // Each figure on the card keeps its number and unit on one line (the unit broke in two:
  // "0,000177 LV / LX", "0,00 / USDT").
  const broken = await row
    .first()
    .locator('dd span[translate="no"]')
    .evaluateAll((spans) => spans.filter((s) => s.getClientRects().length > 1).map((s) => s.innerText));
  assert.deepEqual(broken, []);
  await page.getByRole('button', { name: es['menu-open'] }).click();
  await page.getByRole('link', { name: es['menu-dashboard'], exact: true }).click();
  const dashboard = page.getByTestId('dash-accrued');
  await dashboard.waitFor();
  assert.match((await dashboard.innerText()).split(' ≈')[0].trim(), reward);
  assert.match(await page.getByTestId('account-accrued').innerText(), reward);
  await page.context().close();
});

test('the token page without a wallet: price, quote and terms; on a phone, the wallet apps', async () => {
  server.giveWallet(DEMO_USER.email, accounts[6]);
  for (const [language, viewport] of VIEWS) {
    const words = WORDS[language];
    const phone = viewport === PHONE;
    const { page } = await visit('/tokenLVLX', {
      language,
      viewport,
      account: DEMO_USER,
      fresh: viewport === VIEWS[0][1],
      phone,
    });
    const price = page.getByTestId('buy-price');
    await price.waitFor();
    assert.equal(await price.innerText(), `1 LVLX = ${language === 'en' ? '0.1' : '0,1'} USDT`);
    await page.getByLabel(words['buy-pay']).fill('10');
    assert.equal(await page.getByLabel(fill(words['buy-receive'], { product: 'LVLX' })).inputValue(), '100');
    const summary = await page.getByTestId('buy-summary').innerText();
    assert.match(summary, language === 'en' ? /10\.00 USDT[\s\S]*100\.00 LVLX/ : /10,00 USDT[\s\S]*100,00 LVLX/);
    await page.getByTestId('buy-terms').getByText(words['buy-terms-price']).waitFor();
    const connect = page.getByTestId('buy-connect');
    if (phone) {
      // A phone's browser has no extension: what to do, and the apps that open this page.
      await connect.getByText(words['wallet-phone-help']).waitFor();
      const href = (app) =>
        connect.getByRole('link', { name: fill(words['wallet-open-in'], { app }) }).getAttribute('href');
      const here = `${server.url}/tokenLVLX`;
      assert.equal(await href('MetaMask'), `https://metamask.app.link/dapp/${new URL(here).host}/tokenLVLX`);
      assert.equal(new URL(await href('Trust Wallet')).searchParams.get('url'), here);
      assert.equal(new URL(await href('Trust Wallet')).searchParams.get('coin_id'), '966');
      assert.equal(new URL(await href('Coinbase Wallet')).searchParams.get('cb_url'), here);
      assert.equal(await page.getByRole('button', { name: words['wallet-connect'] }).count(), 0, 'no dead-end button');
    } else {
      // A desktop without an extension: what a wallet is, the guide, and the connect button.
      await connect.getByRole('link', { name: words['wallet-guide-link'] }).waitFor();
      await connect.getByRole('button', { name: words['wallet-connect'] }).waitFor();
      assert.equal(
        await connect.getByRole('link', { name: fill(words['wallet-open-in'], { app: 'MetaMask' }) }).count(),
        0,
      );
    }
    assert.ok(await noSideways(page), `${language} at ${viewport.width} px`);
    await shot(page, `first-steps-token-${language}-${viewport.width}`);
    await page.context().close();
  }
});

test("the node page's earnings stay true when no holder has earned anything yet", async () => {
  const outcomes = (await server.call(DEMO_USER, 'network')).nodeOutcomes;
  assert.ok(outcomes.holders >= 5, `the seed gives enough holders: ${outcomes.holders}`);
  assert.equal(outcomes.nothing, outcomes.holders, 'none has earned yet');
  assert.deepEqual(
    outcomes.said.map((s) => s.key),
    ['node-outcomes-none'],
  );
  // The node page is for members with a linked wallet (the wallet check): as the tests above left
  // the demo member.
  server.giveWallet(DEMO_USER.email, accounts[6]);
  for (const [language, viewport] of VIEWS) {
    const words = WORDS[language];
    const { page } = await visit('/activation-node', {
      language,
      viewport,
      account: DEMO_USER,
      fresh: viewport === VIEWS[0][1],
    });
    const text = page.getByTestId('node-outcomes-text');
    await text.waitFor();
    assert.equal(
      await text.innerText(),
      `${fill(words['node-outcomes-holders'], { holders: outcomes.holders })} ${words['node-outcomes-none']}`,
    );
    // Never "a quarter less than 0.00": nothing about amounts when every amount is zero.
    const box = await page.getByTestId('node-outcomes').innerText();
    assert.doesNotMatch(box, /0[.,]00 USDT/, box);
    assert.ok(await noSideways(page), `${language} at ${viewport.width} px`);
    await shot(page, `first-steps-node-${language}-${viewport.width}`);
    await page.context().close();
  }
});

test('with nothing to claim, the rank bonus page shows no claim limits, only that there is nothing yet', async () => {
  server.giveWallet(DEMO_USER.email, accounts[6]);
  for (const [language, viewport] of VIEWS) {
    const words = WORDS[language];
    const { page } = await visit('/rank-bonus', { language, viewport, account: DEMO_USER });
    const claims = page.getByTestId('claims');
    await claims.getByText(words['error-nothing-to-claim']).waitFor();
    // The contract's limits mean nothing to a member with 0 to claim: not shown.
    assert.equal(await claims.getByTestId('claims-room').count(), 0, 'no claim limits');
    assert.equal(await claims.getByText(words['claims-room-title']).count(), 0);
    await shot(page, `first-steps-rank-bonus-nothing-${language}-${viewport.width}`);
    await page.context().close();
  }
});
