// The member's pages laid out as a phone and a desktop show them, in es and pt at 390 px and en
// at 1440 px: a date range's labels stay with their fields and an empty end date looks like the
// start one; an empty list says one thing, not two; the network is its levels' totals that open
// to compact rows; the lock tiers sit in one row on a desktop; the money history's CSV is in the
// page's language, with the machine form beside it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { join } from 'node:path';
import { DEMO_USER, launchBrowser, settled, startServer, SHOTS, locale, memberPage } from './harness.mjs';

import { checksumAddress } from '../../src/core/index.js';

const PHONE = { width: 390, height: 844 };

let server;
let browser;
let accounts;
before(async () => {
  // 150 members in referral trees under the demo member: levels of many members each.
  server = await startServer({ chain: true, seed: ['--users', '150', '--ico-tx', '40', '--seed', '7'] });
  browser = await launchBrowser();
  accounts = (await server.anvil.rpc('eth_accounts')).result.map(checksumAddress);
  server.giveWallet(DEMO_USER.email, accounts[1]);
});
after(async () => {
  await browser?.close();
  server?.stop();
});

/** The demo member on `route` in `language`, the wallet connected when the page asks for it. */
const memberOn = (route, language, viewport = PHONE) =>
  memberPage(browser, server, route, { language, viewport, wallet: { account: accounts[1] }, connect: 'if-shown' });

const sideways = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

for (const language of ['es', 'pt']) {
  test(`staked NFTs at 390 px in ${language}: each date label beside its field, the end open, one empty message`, async () => {
    const d = locale(language);
    const page = await memberOn('/dashboardNFTs', language);
    const section = page.getByTestId('nft-staked-section');
    await section.getByText(d['nft-staked-empty']).waitFor({ timeout: 15_000 });
    const box = async (locator) => locator.boundingBox();
    for (const key of ['filter-start', 'filter-end']) {
      const label = section.locator('label', { hasText: d[key] });
      const field = section.getByLabel(d[key], { exact: true });
      const [l, f] = [await box(label), await box(field)];
      const middle = (b) => b.y + b.height / 2;
      assert.ok(
        Math.abs(middle(l) - middle(f)) < f.height / 2,
        `"${d[key]}" (y ${Math.round(l.y)}) and its field (y ${Math.round(f.y)}) are on one line`,
      );
    }
    // The end date may be typed first ("released until then"): it is not disabled, nor drawn so.
    const [start, end] = [
      section.getByLabel(d['filter-start'], { exact: true }),
      section.getByLabel(d['filter-end'], { exact: true }),
    ];
    assert.equal(await end.isDisabled(), false, 'the empty end date is not disabled');
    const look = (field) =>
      field.evaluate((e) => {
        const s = getComputedStyle(e);
        return [s.opacity, s.backgroundColor, s.color];
      });
    assert.deepEqual(await look(end), await look(start), 'the empty end date looks like the empty start date');
    // One message: what the member has not done yet, not also "no information available yet".
    assert.equal(await section.getByText(d['table-empty']).count(), 0, `"${d['table-empty']}" is not said as well`);
    assert.equal(await section.getByTestId('table-empty').locator('p').count(), 1);
    assert.ok((await sideways(page)) <= 0);
    await page.screenshot({ path: join(SHOTS, `member-dashboardNFTs-${language}-390.png`), fullPage: true });

    await page.goto('/staking');
    await settled(page);
    await page.getByText(d['staking-positions-empty']).waitFor({ timeout: 15_000 });
    assert.equal(await page.getByText(d['table-empty']).count(), 0, `"${d['table-empty']}" is not said as well`);
    await page.screenshot({ path: join(SHOTS, `member-staking-${language}-390.png`), fullPage: true });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`the network at 390 px in ${language}: level totals that open to compact rows`, async () => {
    const d = locale(language);
    const page = await memberOn('/afiliates', language);
    const level1 = page.getByTestId('level-1');
    await level1.waitFor({ timeout: 15_000 });
    const members = (await server.call(DEMO_USER, 'network')).levels.map((l) => l.members.length);
    assert.ok(members[0] >= 10, `level 1 has ten members or more (${members})`);
    // Closed, every level is one box of its totals: no member's row, no card.
    assert.equal(await page.locator('.row-card').count(), 0, 'no full card per member');
    assert.equal(await page.getByTestId('level-row').filter({ visible: true }).count(), 0);
    const closed = await page.evaluate(() => document.documentElement.scrollHeight);
    const totals = await page.getByTestId('level-1-totals').innerText();
    assert.match(totals, new RegExp(d['network-members'], 'i'));
    assert.match(totals, new RegExp(String(members[0])));
    // Opened: compact rows, a page of ten, each a name and one line of figures.
    await level1.locator('summary').click();
    const rows = level1.getByTestId('level-row');
    await rows.first().waitFor();
    assert.equal(await rows.count(), Math.min(10, members[0]));
    const tallest = Math.max(...(await rows.evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect().height))));
    assert.ok(tallest <= 96, `a member's row is at most 96 px tall, a name and a line of figures (${tallest})`);
    assert.ok(closed < 2 * 844, `the closed network is under two screens (${closed} px)`);
    assert.ok((await sideways(page)) <= 0);
    await page.screenshot({ path: join(SHOTS, `member-afiliates-${language}-390.png`), fullPage: true });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('the lock tiers: one row of four at wide widths in every language, two by two on a phone', async () => {
  const views = [
    ['en', { width: 1440, height: 900 }, 4],
    ['es', { width: 1440, height: 900 }, 4],
    ['pt', { width: 1440, height: 900 }, 4],
    ['es', { width: 1024, height: 800 }, 4],
    ['es', PHONE, 2],
    ['pt', PHONE, 2],
  ];
  for (const [language, viewport, perRow] of views) {
    const page = await memberOn('/staking', language, viewport);
    const tiers = page.locator('[data-testid^="tier-"]');
    await tiers.first().waitFor({ timeout: 15_000 });
    const boxes = await tiers.evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().toJSON()));
    const where = `${language} at ${viewport.width} px`;
    assert.equal(boxes.length, 4, `${boxes.length} tiers`);
    const rows = new Set(boxes.map((b) => Math.round(b.top)));
    assert.equal(rows.size, 4 / perRow, `${where}: ${perRow} a row, not three and one`);
    assert.ok(Math.min(...boxes.map((b) => b.width)) >= 140, `${where}: each at least 140 px wide`);
    assert.equal(await sideways(page), 0, where);
    await page.screenshot({ path: join(SHOTS, `member-staking-${language}-${viewport.width}.png`), fullPage: true });
    await page.context().close();
  }
});

test('at 390 px every folded NFT offer is one line, its arrow beside it, and opens to buy', async () => {
  for (const language of ['es', 'pt']) {
    const page = await memberOn('/dashboardNFTs', language);
    const offers = page.locator('.nft-offer > summary');
    await offers.first().waitFor({ timeout: 15_000 });
    // NFT 11's price is the longest: its arrow once wrapped to a line of its own.
    const heights = await offers.evaluateAll((ss) => ss.map((s) => Math.round(s.getBoundingClientRect().height)));
    assert.equal(heights.length, 11);
    assert.equal(new Set(heights).size, 1, `${language}: every offer the same height ${heights}`);
    const eleven = page.getByTestId('nft-11');
    await eleven.locator('summary').click();
    await eleven.getByLabel(locale(language)['nft-quantity']).waitFor();
    assert.equal(await sideways(page), 0, language);
    await page.context().close();
  }
});
