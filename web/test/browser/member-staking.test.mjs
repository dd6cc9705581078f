// NFTs and LVLX staking as a member uses them, in headless Chromium against a server
// on its own anvil chain with the staking contracts deployed by `lvlx chain deploy`, through the
// injected EIP-1193 wallet whose anvil dev account really signs: buy an NFT, stake it, rewards
// grow as the chain's time advances, withdraw interest, the admin screen counts it live, withdraw
// after the release; the same for LVLX (staked by keyboard alone, its steps announced); a stake
// the reserve cannot cover refused with its reason.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { join } from 'node:path';
import {
  consent,
  dateFields,
  DEMO_ADMIN,
  DEMO_USER,
  en,
  launchBrowser,
  localDay,
  openPage,
  settled,
  startServer,
  typeDate,
  SHOTS,
  es,
  pt,
  memberPage,
} from './harness.mjs';

import { announced, listen, tabTo } from './keyboard.mjs';
import {
  calldata,
  checksumAddress,
  decodeUint,
  formatLvlx,
  formatUnits,
  stakingStanding,
} from '../../src/core/index.js';
const LVLX = 10n ** 18n;
const DAY = 86_400;
const label = (key, n) => en[key].replace('{{n}}', n);
const fill = (text, values) => text.replace(/\{\{(\w+)\}\}/g, (_, k) => values[k]);
/** What the live regions said since `listen` that names USDT (the reward's value aside). */
const saidUsdt = (page) =>
  page.evaluate(() => (window.__announced ?? []).filter((s) => /USDT/.test(s) && !/≈/.test(s)));

let server;
let browser;
let accounts;
before(async () => {
  server = await startServer({ chain: true });
  browser = await launchBrowser();
  accounts = (await server.anvil.rpc('eth_accounts')).result.map(checksumAddress);
  // The member's linked wallet is anvil's account 1 (as if signed for: wallet.test.mjs links by signature).
  server.giveWallet(DEMO_USER.email, accounts[1]);
});
after(async () => {
  await browser?.close();
  server?.stop();
});

const chain = () => server.settings.chain;
async function send(from, to, contract, fn, args) {
  const { result, error } = await server.anvil.rpc('eth_sendTransaction', [
    { from, to, data: calldata(contract, fn, args) },
  ]);
  assert.ok(result, `${fn}: ${JSON.stringify(error)}`);
}
async function read(to, contract, fn, args) {
  const { result } = await server.anvil.rpc('eth_call', [{ to, data: calldata(contract, fn, args) }, 'latest']);
  return decodeUint(result);
}
/** The chain's clock moves on (and a block is mined at the new time). */
async function advance(seconds) {
  await server.anvil.rpc('evm_increaseTime', [seconds]);
  await server.anvil.rpc('evm_mine', []);
}

/** The demo member on `route`, its wallet connected. */
const memberOn = (route, options) =>
  memberPage(browser, server, route, { ...options, wallet: { account: accounts[1] }, connect: true });

const confirmed = (page, testId = 'tx-status') =>
  page.locator(`[data-testid="${testId}"][data-state="confirmed"]`).waitFor({ timeout: 30_000 });

test('NFTs: buy, stake, rewards accrue by the second, withdraw interest, the admin counts it live, withdraw after release', async () => {
  const admin = await openPage(browser, server.url, {
    storage: await server.storageFor(DEMO_ADMIN),
    cookies: consent,
    viewport: { width: 1440, height: 1000 },
  });
  await admin.goto('/admin/tables/NFTStaking');
  await settled(admin);
  const inStake = admin.locator('[data-testid="nft-general"] [data-key="nft-summary-in-stake"] dd:not(.summary-help)');
  await inStake.waitFor();
  assert.equal(await inStake.innerText(), '0');
  await admin.getByTestId('nft-reserve').waitFor();

  const page = await memberOn('/dashboardNFTs');
  const card = page.getByTestId('nft-1');
  await card.waitFor();
  // Every card holds its figures and controls inside its box, at a laptop's width and a wide
  // screen's (four cards a row at 1440 px once clipped "50.00 U" and pushed "+" under the next).
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const spill = await page.evaluate(() => ({
      cards: [...document.querySelectorAll('.nft-card')]
        .filter((c) => c.scrollWidth > c.clientWidth + 1)
        .map((c) => c.dataset.testid),
      sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth,
    }));
    assert.deepEqual(spill, { cards: [], sideways: false }, `NFT cards at ${width} px`);
  }
  assert.equal(await card.getByTestId('nft-held').innerText(), '0');
  // A quantity that is not a whole number is explained beside the field; Buy stays off.
  await card.getByLabel(en['nft-quantity']).fill('1.5');
  assert.ok(await card.getByRole('alert').innerText());
  assert.ok(await card.getByRole('button', { name: en['nft-buy'] }).isDisabled());
  await card.getByLabel(en['nft-quantity']).fill('2');
  assert.equal(await card.getByTestId('nft-stake-reason').innerText(), en['staking-not-enough-nfts']);
  await card.getByRole('button', { name: en['nft-buy'] }).click();
  await confirmed(page);
  await card.getByTestId('nft-held').filter({ hasText: '2' }).waitFor({ timeout: 15_000 });
  assert.equal(await read(chain().levelNft, 'LevelNFT', 'balanceOf', [accounts[1], '1']), '2');

  // Stake both (the staking contract's approval first, then the stake), each step in the
  // staking's words: the NFTs approved for the staking contract, never "Approving USDT".
  assert.equal(await card.getByTestId('nft-stake-reason').innerText(), '');
  await listen(page);
  await card.getByRole('button', { name: en['nft-stake'] }).click();
  await announced(page, en['tx-stake-nft-approving']);
  await announced(page, fill(en['tx-stake-nft-sending'], { count: 2, id: 1 }));
  await confirmed(page);
  await announced(page, fill(en['nft-staked'], { count: 2, id: 1 }));
  assert.deepEqual(await saidUsdt(page), [], 'no step of an NFT stake mentions USDT');
  const row = page.getByTestId('nft-positions').locator('.rdt_TableRow').first();
  await row.waitFor({ timeout: 15_000 });
  // With NFTs staked, they come first on the page, the offers after them.
  assert.ok(
    await page.evaluate(() => {
      const staked = document.querySelector('[data-testid="nft-staked-section"]');
      const offers = document.querySelector('[data-testid="nft-catalogue"]');
      return Boolean(staked.compareDocumentPosition(offers) & Node.DOCUMENT_POSITION_FOLLOWING);
    }),
    'the staked NFTs before the catalogue',
  );
  // The admin screen counts it without a reload (the live channel).
  await admin
    .locator('[data-testid="nft-general"] [data-key="nft-summary-in-stake"] dd:not(.summary-help)', { hasText: '2' })
    .waitFor({ timeout: 20_000 });
  await page.screenshot({ path: join(SHOTS, 'member-nfts.png'), fullPage: true });

  // The staked NFTs count in the member's money at their value (two of 50 USDT), beside the
  // LVLX's USDT value and in a total of both.
  const money = await openPage(browser, server.url, { storage: await server.storageFor(DEMO_USER), cookies: consent });
  await money.goto('/dashboard');
  await settled(money);
  const worth = money.getByTestId('account-nfts').filter({ hasText: 'USDT' });
  await worth.waitFor({ timeout: 15_000 });
  assert.equal(await worth.innerText(), fill(en['account-nfts-worth'], { count: 2, value: '100.00 USDT' }));
  // In cents, exact.
  const usdt = (text) => Number(text.match(/([\d,]+\.\d\d) USDT/)[1].replace(/[,.]/g, ''));
  const lvlxWorth = usdt(await money.getByTestId('money-account').locator('p.muted').first().innerText());
  const withNfts = await money.getByTestId('account-with-nfts').innerText();
  assert.ok(withNfts.includes('(100.00 USDT)'), withNfts);
  assert.equal(usdt(withNfts.split(':')[1]), lvlxWorth + 10_000, withNfts);
  await money.close();

  // The release-date filter behaves as the admin tables' do: a reversed range keeps the last
  // valid one applied (the position still listed) and names it beside the error.
  const day = (days) => new Date(Date.now() + days * DAY * 1000).toISOString().slice(0, 10);
  const [from, to] = [dateFields(page).first(), dateFields(page).nth(1)];
  await typeDate(from, day(-1));
  await typeDate(to, day(400));
  await typeDate(from, day(500));
  await page.getByTestId('filter-error').filter({ hasText: en['error-date-range'] }).waitFor();
  assert.ok(await row.isVisible(), 'the staked NFTs stay at the last valid range');
  const note = await page.getByTestId('filter-kept').innerText();
  assert.ok(note.includes(localDay(day(400))), `the note names the range still applied: ${note}`);
  await page.getByRole('button', { name: en['filter-reset'] }).click();
  assert.equal(await page.getByTestId('filter-error').innerText(), '');

  // Thirty days later the interest withdrawn is what the contract paid, to the base unit; My
  // assets, open in another tab, lists it as it is recorded (no reload).
  const assets = await openPage(browser, server.url, {
    storage: await server.storageFor(DEMO_USER),
    cookies: consent,
    viewport: { width: 1280, height: 900 },
  });
  await assets.goto('/myActives');
  await settled(assets);
  const interestRows = assets
    .getByTestId('actives-history')
    .locator('.rdt_TableRow')
    .filter({ hasText: en['history-kind-interest'] });
  assert.equal(await interestRows.count(), 0);
  await advance(30 * DAY);
  const before = BigInt(await read(chain().lvlx, 'LVLX', 'balanceOf', [accounts[1]]));
  await row.getByRole('button', { name: label('staking-withdraw-interest-of', 1) }).click();
  await confirmed(page, 'position-status');
  await interestRows.first().waitFor({ timeout: 15_000 });
  await assets.close();
  const paid = BigInt(await read(chain().lvlx, 'LVLX', 'balanceOf', [accounts[1]])) - before;
  assert.ok(paid > 0n);
  const withdrawnCell = row.locator('.rdt_TableCell').nth(6);
  await withdrawnCell.filter({ hasText: formatLvlx(paid.toString()) }).waitFor({ timeout: 15_000 });
  // The accrued figure is the core's for the position at the chain's time: 30 days' worth.
  const overview = await server.call(DEMO_USER, 'staking');
  const [position] = overview.positions.nft;
  assert.equal(position.accrued, stakingStanding(position, overview.now).accrued);
  const thirtyDays = stakingStanding(position, Math.floor(position.startDate / 1000) + 30 * DAY).accrued;
  assert.ok(BigInt(position.accrued) >= BigInt(thirtyDays));
  // The row shows at least those 30 days' worth, at its six decimals (10^12 base units each).
  const shown =
    BigInt((await row.getByTestId('position-accrued').innerText()).split(/\s/)[0].replace('.', '')) * 10n ** 12n;
  assert.ok(shown + 10n ** 12n > BigInt(thirtyDays) && shown <= BigInt(position.reward), `${shown} vs ${thirtyDays}`);
  const locked = row.getByTestId('position-locked');
  assert.match(await locked.innerText(), new RegExp(`^${en['staking-locked-until'].replace('{{date}}', '.+')}$`));
  assert.ok(await locked.isDisabled(), 'locked until the release');
  assert.equal(await row.getByRole('button', { name: label('staking-release-of', 1) }).count(), 0);

  // After the release: the NFTs come back with the rest of the reward.
  await advance(180 * DAY);
  await page.reload();
  await settled(page);
  const released = page.getByTestId('nft-positions').locator('.rdt_TableRow').first();
  await released.getByRole('button', { name: label('staking-release-of', 1) }).click();
  await confirmed(page, 'position-status');
  await released.getByText(en['staking-returned']).waitFor({ timeout: 15_000 });
  assert.equal(await read(chain().levelNft, 'LevelNFT', 'balanceOf', [accounts[1], '1']), '2');
  const reward = BigInt(position.reward);
  assert.equal(
    BigInt(await read(chain().lvlx, 'LVLX', 'balanceOf', [accounts[1]])) - before,
    reward,
    'the whole reward, once',
  );
  // Returned NFTs set the filter's earliest start (docs/product/screens.md#date-filters): a start
  // typed before it is refused and named, the table keeps its range.
  const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);
  await typeDate(dateFields(page).first(), isoDay(position.withdrawDate));
  const refused = page.getByTestId('filter-error');
  await refused.filter({ hasText: en['error-date-before'].split('{{date}}')[0] }).waitFor();
  assert.ok((await refused.innerText()).includes(localDay(isoDay(position.withdrawDate + DAY * 1000))));
  await admin.close();
  await page.context().close();
});

// Without a wallet connected the box at the top says so once, with its button; the stake
// button's reason only points there (it said the same sentence a second time).
test('LVLX without a wallet connected: told once, the button points to the box above', async () => {
  const page = await memberPage(browser, server, '/staking', { language: 'es', viewport: { width: 390, height: 844 } });
  await page.getByTestId('stake-reason').filter({ hasText: es['staking-connect-first'] }).waitFor();
  assert.equal(await page.getByText(es['staking-connect-help'], { exact: true }).count(), 1);
  await page.context().close();
});

test('LVLX: the quote before sending, the balance guard, stake, withdraw, and a stake the reserve cannot cover', async () => {
  await send(accounts[0], chain().lvlx, 'LVLX', 'transfer', [accounts[1], (5000n * LVLX).toString()]);
  const page = await memberOn('/staking');
  const amount = page.getByLabel(en['staking-amount'].replace('{{product}}', 'LVLX'));
  await amount.waitFor();
  assert.equal(await page.getByTestId('stake-reason').innerText(), en['staking-enter-amount']);
  // More than the wallet holds: said beside the field, the button off.
  await amount.fill('6000');
  assert.equal(await page.locator('.field-error').innerText(), en['chain-insufficient-balance']);
  assert.ok(await page.getByRole('button', { name: en['staking-stake'], exact: true }).isDisabled());
  // Max fills the balance; the summary says what 1000 LVLX earn in tier 2 (4 % over 90 days).
  await page.getByRole('button', { name: en['staking-max'] }).click();
  assert.equal(
    await amount.inputValue(),
    formatUnits(await read(chain().lvlx, 'LVLX', 'balanceOf', [accounts[1]]), 18),
  );
  // By keyboard alone from here: the tier (arrow keys within the group), the amount, the button.
  const checked = page.locator('.tiers input[type=radio]:checked');
  await tabTo(page, checked, { back: true, ring: page.locator('.tier.selected') });
  await page.keyboard.press('ArrowRight');
  assert.equal(await checked.getAttribute('value'), '2');
  await tabTo(page, amount);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('1000');
  assert.equal(
    await page.getByTestId('stake-reward').innerText(),
    `${formatLvlx((40n * LVLX).toString())} LVLX ≈ 4.00 USDT`,
  );
  await tabTo(page, page.getByRole('button', { name: en['staking-stake'], exact: true }));
  await listen(page);
  await page.keyboard.press('Enter');
  // The staking's own words: LVLX approved for staking, the stake sent, the stake confirmed;
  // never the purchase's "Approving USDT".
  const figures = { amount: '1,000.00', product: 'LVLX' };
  await announced(page, fill(en['tx-stake-lvlx-approving'], figures));
  await announced(page, fill(en['tx-stake-lvlx-sending'], figures));
  await confirmed(page);
  await announced(page, fill(en['tx-stake-lvlx-confirmed'], figures));
  assert.deepEqual(await saidUsdt(page), [], 'no step of a stake mentions USDT');
  const row = page.getByTestId('lvlx-positions').locator('.rdt_TableRow').first();
  await row.waitFor({ timeout: 15_000 });
  assert.equal(await read(chain().lvlxStaking, 'LvlxStaking', 'totalStaked', []), (1000n * LVLX).toString());

  await advance(91 * DAY);
  await page.reload();
  await settled(page);
  const before = BigInt(await read(chain().lvlx, 'LVLX', 'balanceOf', [accounts[1]]));
  await page
    .getByTestId('lvlx-positions')
    .locator('.rdt_TableRow')
    .first()
    .getByRole('button', { name: label('staking-release-of', 1) })
    .click();
  await confirmed(page, 'position-status');
  assert.equal(BigInt(await read(chain().lvlx, 'LVLX', 'balanceOf', [accounts[1]])) - before, 1040n * LVLX);

  // The owner takes the free reserve down to 1 LVLX: a stake whose reward needs more is refused
  // before anything is sent, with the reserve's reason.
  const free = BigInt(await read(chain().lvlxStaking, 'LvlxStaking', 'freeReserve', []));
  await server.anvil.asOwner(
    chain().lvlxStaking,
    calldata('LvlxStaking', 'withdrawFree', [accounts[0], (free - LVLX).toString()]),
  );
  await page.reload();
  await settled(page);
  await page.getByTestId('tier-2').click();
  await page.getByLabel(en['staking-amount'].replace('{{product}}', 'LVLX')).fill('1000');
  await page.getByTestId('stake-reason').filter({ hasText: en['chain-reserve-short'] }).waitFor();
  assert.ok(await page.getByRole('button', { name: en['staking-stake'], exact: true }).isDisabled());
  await page.context().close();
});

test('the staking pages in Spanish at phone width', async () => {
  for (const route of ['/dashboardNFTs', '/staking']) {
    const page = await memberOn(route, { viewport: { width: 390, height: 844 }, language: 'es' });
    await page.locator('.row-cards, .table-empty').first().waitFor({ timeout: 15_000 });
    assert.equal(await page.locator('.rdt_Table').count(), 0, 'rows are cards on a phone');
    assert.equal(
      await page.locator('h1').innerText(),
      es[route === '/staking' ? 'menu-staking' : 'menu-dashboardNFTs'],
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `no sideways scroll of the page (${overflow} px)`);
    if (route === '/dashboardNFTs') {
      // Eleven offers, one line each until the member opens one; opened, it has its actions.
      const offers = page.locator('details.nft-offer');
      assert.equal(await offers.count(), 11);
      assert.equal(await page.locator('details.nft-offer[open]').count(), 0);
      const third = page.getByTestId('nft-3');
      assert.equal(await third.getByRole('button', { name: es['nft-buy'] }).isVisible(), false);
      await third.locator('summary').click();
      await third.getByRole('button', { name: es['nft-buy'] }).waitFor();
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      assert.ok(height < 3500, `the NFT page is ${height} px tall at 390 px`);
    }
    if (route === '/staking') {
      // Amounts as Spanish is written: a decimal comma, grouping dots; a lone mark before three
      // digits reads two ways across Spanish-speaking countries and is refused with why.
      const amount = page.getByLabel(es['staking-amount'].replace('{{product}}', 'LVLX'));
      const error = page.locator('.field-error');
      await amount.fill('1.500');
      assert.equal(await error.innerText(), es['validations-amount-ambiguous']);
      await amount.fill('1,5');
      await page.getByTestId('stake-summary').getByText('1,50 LVLX', { exact: true }).waitFor();
      for (const typed of ['1.000,25', '2.5', '1 000']) {
        await amount.fill(typed);
        assert.equal(await error.innerText(), '', typed);
      }
      await amount.fill('1,5,5');
      assert.equal(await error.innerText(), es['validations-amount-msg']);
      await page.getByRole('button', { name: es['staking-max'] }).click();
      assert.match(await amount.inputValue(), /^\d+(,\d+)?$/, 'Max fills a Spanish number');
      assert.equal(await error.innerText(), '');
    }
    await page.screenshot({ path: join(SHOTS, `member-${route.slice(1)}-es-390.png`), fullPage: true });
    await page.context().close();
  }
});

test('on a phone in Spanish a member opens an NFT offer, buys it, stakes it, then stakes LVLX', async () => {
  const page = await memberOn('/dashboardNFTs', { viewport: { width: 390, height: 844 }, language: 'es', phone: true });
  const step = (name) => page.screenshot({ path: join(SHOTS, `walk-nft-es-390-${name}.png`), fullPage: true });
  const card = page.getByTestId('nft-2');
  await card.waitFor({ timeout: 15_000 });
  await step('1-offers');
  // The offer is folded: opened, it shows its figures, the quantity and Buy.
  await card.locator('summary').click();
  const quantity = card.getByLabel(es['nft-quantity']);
  await quantity.waitFor();
  await step('2-offer-open');
  const held = Number(await card.getByTestId('nft-held').innerText());
  await quantity.fill('1');
  await card.getByRole('button', { name: es['nft-buy'] }).click();
  await confirmed(page);
  await card
    .getByTestId('nft-held')
    .filter({ hasText: String(held + 1) })
    .waitFor({ timeout: 15_000 });
  assert.equal(await card.evaluate((d) => d.open), true, 'the offer stays open after buying');
  await step('3-bought');
  await card.getByRole('button', { name: es['nft-stake'] }).click();
  const staked = page.getByTestId('nft-positions').locator('.row-card');
  await staked.first().waitFor({ timeout: 45_000 });
  await step('4-staked');
  assert.ok((await staked.count()) >= 1);
  // Each figure of a staked NFT under its own name: es and pt once headed both the NFT's number
  // and how many with "NFT" ("NFT #2", "NFT 1").
  const names = await staked.first().locator('dt').allInnerTexts();
  assert.equal(new Set(names).size, names.length, names.join(' | '));
  assert.ok(names.includes(es['nft-count']), names.join(' | '));
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0);

  await send(accounts[0], chain().lvlx, 'LVLX', 'transfer', [accounts[1], (100n * LVLX).toString()]);
  await page.getByRole('button', { name: es['menu-open'] }).tap();
  await page.getByRole('link', { name: es['menu-staking'], exact: true }).tap();
  const amount = page.getByLabel(es['staking-amount'].replace('{{product}}', 'LVLX'));
  await amount.waitFor();
  await step('5-staking');
  const before = await page.getByTestId('lvlx-positions').locator('.row-card').count();
  await amount.fill('10');
  await page.getByTestId('stake-summary').waitFor();
  await step('6-staking-quote');
  await page.getByRole('button', { name: es['staking-stake'], exact: true }).click();
  await confirmed(page);
  await page.getByTestId('lvlx-positions').locator('.row-card').nth(before).waitFor({ timeout: 15_000 });
  await step('7-staking-staked');
  assert.deepEqual(page.errors, []);
  await page.context().close();

  // The money history in Portuguese: the amount column names its coin, so it is not read as the
  // "Valor em USDT no dia" beside it.
  const history = await memberPage(browser, server, '/myActives', {
    viewport: { width: 390, height: 844 },
    language: 'pt',
    wallet: { account: accounts[1] },
  });
  const entry = history.getByTestId('actives-history').locator('.row-card').first();
  await entry.waitFor({ timeout: 15_000 });
  const labels = await entry.locator('dt').allInnerTexts();
  assert.ok(labels.includes(pt['ico-amount-coin']), labels.join(' | '));
  assert.ok(labels.includes(pt['history-usdt-value']), labels.join(' | '));
  assert.ok(!labels.includes(pt['ico-amount']), 'not a bare "Valor"');
  await history.screenshot({ path: join(SHOTS, 'walk-myactives-pt-390.png'), fullPage: true });
  await history.context().close();
});
