// The staking screens and content editing as an admin uses them, in headless Chromium against a
// seeded server: figures on screen are checked against the server's statistics and the core's
// answers over the same Arrow rows; an edited block is then read by a member.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

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
} from './harness.mjs';
import { formatFixed, formatTokenIn, loadStakeRows, localizeNumber } from '../../src/core/index.js';

let server;
let browser;
before(async () => {
  server = await startServer({
    seed: ['--users', '120', '--ico-tx', '300', '--nft-stakes', '90', '--lvlx-stakes', '70', '--seed', '9'],
  });
  // The member has linked a wallet, so the wallet check (wallet.test.mjs) lets them through.
  server.giveWallet(DEMO_USER.email);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

async function pageAs(account, route, wait = '.rdt_TableRow') {
  const page = await openPage(browser, server.url, {
    storage: await server.storageFor(account),
    cookies: consent,
    viewport: { width: 1440, height: 1000 },
  });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.goto(route);
  await settled(page);
  if (wait) await page.waitForSelector(wait, { timeout: 30_000 });
  return page;
}

/** A count as the summary boxes show it: with English digit grouping. */
const grouped = (n) => localizeNumber(String(n), 'en');
const figure = (page, box, key) =>
  page.locator(`[data-testid="${box}"] [data-key="${key}"] dd:not(.summary-help)`).innerText();
const tables = (page) => page.locator('.data-table');
/** A column's cells by the column's id (which columns show depends on the width). */
const cells = (page, table, id) =>
  tables(page).nth(table).locator(`.rdt_TableRow .rdt_TableCell[data-column-id="${id}"]`).allInnerTexts();

async function rowsOf(route) {
  const res = await server.call(DEMO_ADMIN, route, { raw: true });
  return new Uint8Array(await res.arrayBuffer());
}

/** Cents of a shown amount ("3,204,937.49 LVLX"). */
const cents = (text) => BigInt(text.split(' ')[0].replaceAll(',', '').replace('.', ''));
/**
 * Rewards accrue by the second (computed at read time), so a figure the page shows lies between
 * the server's answers before and after the page loaded.
 */
function between(shown, before, after) {
  assert.ok(cents(before) <= cents(shown) && cents(shown) <= cents(after), `${shown} not within [${before}, ${after}]`);
}

test('NFT staking: summary box, stakers search, the NFT detail modal, entries filtered on release date', async () => {
  const before = (await server.call(DEMO_ADMIN, 'statistics-nftstaking?limit=1')).General;
  const bytesBefore = await rowsOf('statistics-nftstaking/rows');
  const page = await pageAs(DEMO_ADMIN, '/admin/tables/NFTStaking');
  const stats = await server.call(DEMO_ADMIN, 'statistics-nftstaking?limit=1');
  const g = stats.General;
  assert.equal(await figure(page, 'nft-general', 'nft-summary-staking'), grouped(g.totalNFTStakingProcess));
  assert.equal(await figure(page, 'nft-general', 'nft-summary-users'), grouped(g.totalUserNFTStaking));
  assert.equal(await figure(page, 'nft-general', 'nft-summary-in-stake'), grouped(g.totalNFTInStake));
  between(
    await figure(page, 'nft-general', 'nft-summary-product'),
    `${formatFixed(before.totalLVLXByNFT, 18, 2)} LVLX`,
    `${formatFixed(g.totalLVLXByNFT, 18, 2)} LVLX`,
  );
  between(
    await figure(page, 'nft-general', 'nft-summary-usdt'),
    `${before.totalUSDTByNFT} USDT`,
    `${g.totalUSDTByNFT} USDT`,
  );
  await tables(page).nth(1).locator('.rdt_TableRow').first().waitFor();
  await page.screenshot({ path: join(SHOTS, 'admin-nft-staking.png'), fullPage: true });

  const bytes = await rowsOf('statistics-nftstaking/rows');
  const stakers = loadStakeRows(bytes, 'nft', 'stakers', Date.now());
  assert.equal(stakers.length, g.totalUserNFTStaking);

  // The detail of the first staker: ids 1–11, odd ones in one column and even in the other,
  // with the counts the core grouped from the entries.
  const first = stakers.page(0, 1)[0];
  await tables(page)
    .nth(0)
    .getByRole('button', { name: en['nft-detail-of'].replace('{{name}}', first.names) })
    .click();
  const dialog = page.locator('dialog[open]');
  await dialog.waitFor();
  assert.equal(await dialog.locator('h2').innerText(), first.names);
  const ids = (testId) =>
    dialog.locator(`[data-testid="${testId}"] [data-id]`).evaluateAll((els) => els.map((e) => Number(e.dataset.id)));
  assert.deepEqual(await ids('nft-odd'), [1, 3, 5, 7, 9, 11]);
  assert.deepEqual(await ids('nft-even'), [2, 4, 6, 8, 10]);
  const counts = await dialog
    .locator('[data-id]')
    .evaluateAll((els) => els.map((e) => [Number(e.dataset.id), Number(e.querySelector('dd').innerText)]));
  for (const [id, count] of counts) assert.equal(count, first.byId[id - 1], `NFT ${id}`);
  assert.equal(
    counts.reduce((sum, [, c]) => sum + c, 0),
    Number(first.amount),
  );
  await page.screenshot({ path: join(SHOTS, 'admin-nft-detail.png') });
  await page.keyboard.press('Escape');
  await page
    .waitForSelector('dialog[open]', { state: 'detached' })
    .catch(() => page.waitForFunction(() => !document.querySelector('dialog[open]')));

  // Search narrows the stakers to names or emails containing the text, any case.
  const needle = first.email.slice(0, 4).toUpperCase();
  await page.getByLabel(en['users-search']).fill(needle);
  const want = stakers.query({ search: needle, offsetMinutes: 0 });
  await page.waitForFunction(
    (n) => document.querySelectorAll('.data-table')[0].querySelectorAll('.rdt_TableRow').length === Math.min(n, 10),
    want.kept,
  );
  const emails = await tables(page)
    .nth(0)
    .locator('.copyable[title*="@"]')
    .evaluateAll((els) => els.map((e) => e.title));
  assert.ok(emails.length > 0);

  // Entries: the release-date range starts full; narrowing it shows the core's tally of the kept entries.
  const entries = loadStakeRows(bytes, 'nft', 'entries', Date.now());
  const offset = await page.evaluate(() => -new Date().getTimezoneOffset());
  const full = entries.range(offset, Date.now());
  const dates = dateFields(page);
  assert.deepEqual(await dates.evaluateAll((els) => els.map((e) => e.value)), [
    localDay(full.start),
    localDay(full.end),
  ]);
  assert.equal(await page.locator('[data-testid="nft-filtered"]').count(), 0);
  await typeDate(dates.first(), '2026-01-01');
  await page.waitForSelector('[data-testid="nft-filtered"]');
  const kept = entries.query({ start: '2026-01-01', end: full.end, offsetMinutes: offset, search: '' });
  assert.ok(kept.kept > 0 && kept.kept < entries.length);
  assert.equal(await figure(page, 'nft-filtered', 'nft-summary-in-stake'), grouped(kept.summary.totalNFTInStake));
  assert.equal(await figure(page, 'nft-filtered', 'nft-summary-users'), grouped(kept.summary.totalUserNFTStaking));
  const earlier = loadStakeRows(bytesBefore, 'nft', 'entries', Date.now());
  const keptBefore = earlier.query({ start: '2026-01-01', end: full.end, offsetMinutes: offset, search: '' });
  earlier.free();
  between(
    await figure(page, 'nft-filtered', 'nft-summary-product'),
    `${formatFixed(keptBefore.summary.totalLVLXByNFT, 18, 2)} LVLX`,
    `${formatFixed(kept.summary.totalLVLXByNFT, 18, 2)} LVLX`,
  );
  const shown = entries.page(0, 10);
  assert.deepEqual(
    await cells(page, 1, 'n'),
    shown.map((r) => String(r.n)),
  );
  assert.deepEqual(
    await cells(page, 1, 'NFTId'),
    shown.map((r) => String(r.NFTId)),
  );
  await page.screenshot({ path: join(SHOTS, 'admin-nft-filtered.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  stakers.free();
  entries.free();
});

test('LVLX staking: summary box and amounts sorted through the core', async () => {
  const before = (await server.call(DEMO_ADMIN, 'statistics-lvlxstaking?limit=1')).General;
  const page = await pageAs(DEMO_ADMIN, '/admin/tables/LVLXStaking');
  const { General: g } = await server.call(DEMO_ADMIN, 'statistics-lvlxstaking?limit=1');
  assert.equal(await figure(page, 'lvlx-general', 'lvlx-summary-stakes'), grouped(g.totalLVLXStakes));
  assert.equal(
    await figure(page, 'lvlx-general', 'lvlx-summary-in-stake'),
    `${formatTokenIn(g.totalLVLXInStake, 'LVLX', 'en')} LVLX`,
  );
  between(
    await figure(page, 'lvlx-general', 'lvlx-summary-usdt'),
    `${before.totalUSDTRewards} USDT`,
    `${g.totalUSDTRewards} USDT`,
  );
  const entries = tables(page).nth(1);
  await entries.getByRole('button', { name: /^Amount/ }).click();
  await page.waitForFunction(() =>
    document.querySelectorAll('.data-table')[1].querySelector('[aria-sort="descending"]'),
  );
  const amounts = (await cells(page, 1, 'amount')).map((a) => Number(a.split(' ')[0].replaceAll(',', '')));
  assert.ok(
    amounts.every((a, i) => i === 0 || amounts[i - 1] >= a),
    amounts.join(' '),
  );
  await page.screenshot({ path: join(SHOTS, 'admin-lvlx-staking.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('edit content: an admin writes the dashboard notice and the private protocol; a member sees them in their language', async () => {
  const admin = await pageAs(DEMO_ADMIN, '/admin/edit-content', 'form.content-form');
  await admin.getByRole('combobox', { name: en['content-block'] }).selectOption('dashboard-notice');
  await admin
    .getByRole('group', { name: en['content-language'] })
    .getByRole('radio', { name: en['language-en'] })
    .check();
  // Blank text is refused with the core's message before anything is sent.
  await admin.getByRole('textbox', { name: en['content-title'], exact: true }).fill('Maintenance on Sunday');
  await admin.getByRole('button', { name: en['content-save'] }).click();
  await admin.waitForSelector(`text=${en['validations-req']}`);
  await admin
    .getByRole('textbox', { name: en['content-description'], exact: true })
    .fill('The platform pauses at 02:00 UTC.\nPurchases resume at 03:00.');
  await admin.getByRole('button', { name: en['content-save'] }).click();
  await admin.waitForSelector(`.Toastify__toast--success >> text=${en['content-saved']}`);

  await admin
    .getByRole('group', { name: en['content-language'] })
    .getByRole('radio', { name: en['language-es'] })
    .check();
  await admin.getByRole('textbox', { name: en['content-title'], exact: true }).fill('Mantenimiento el domingo');
  await admin
    .getByRole('textbox', { name: en['content-description'], exact: true })
    .fill('La plataforma se detiene a las 02:00 UTC.');
  const png = join(server.dataDir, 'notice.png');
  execFileSync('python3', [
    '-c',
    `import zlib,struct,sys
def chunk(t,d): return struct.pack('>I',len(d))+t+d+struct.pack('>I',zlib.crc32(t+d))
raw=b''.join(b'\\x00'+b'\\x20\\xa0\\x60'*16 for _ in range(8))
open(sys.argv[1],'wb').write(b'\\x89PNG\\r\\n\\x1a\\n'+chunk(b'IHDR',struct.pack('>IIBBBBB',16,8,8,2,0,0,0))+chunk(b'IDAT',zlib.compress(raw))+chunk(b'IEND',b''))`,
    png,
  ]);
  await admin.getByLabel(en['content-image-choose']).setInputFiles(png);
  await admin.getByRole('button', { name: en['content-save'] }).click();
  await admin.waitForSelector('.content-image img');
  await admin.screenshot({ path: join(SHOTS, 'admin-edit-content.png'), fullPage: true });

  await admin.getByRole('combobox', { name: en['content-block'] }).selectOption('private-protocol');
  await admin
    .getByRole('group', { name: en['content-language'] })
    .getByRole('radio', { name: en['language-en'] })
    .check();
  await admin.getByRole('textbox', { name: en['content-title'], exact: true }).fill('The Vanguard protocol');
  await admin
    .getByRole('textbox', { name: en['content-description'], exact: true })
    .fill('Members of the private protocol receive <b>weekly</b> reports.');
  await admin.getByRole('button', { name: en['content-save'] }).click();
  await admin.waitForSelector(`.Toastify__toast--success >> text=${en['content-saved']}`);
  assert.deepEqual(admin.errors, []);

  // A member sees the English notice, then the Spanish one (with its image) after switching.
  const user = await pageAs(DEMO_USER, '/dashboard', '.notice-block');
  assert.equal(await user.locator('.notice-block h2').innerText(), 'Maintenance on Sunday');
  assert.equal(await user.locator('.notice-block p').count(), 2);
  await user.getByRole('button', { name: en['language-es'] }).click();
  await user.waitForSelector('.notice-block h2 >> text=Mantenimiento el domingo');
  // The uploaded image, served back re-encoded (16 × 8 pixels).
  await user.waitForFunction(() => document.querySelector('.notice-block img')?.naturalWidth > 0);
  assert.equal(await user.locator('.notice-block img').evaluate((img) => img.naturalWidth), 16);
  await user.screenshot({ path: join(SHOTS, 'user-dashboard-notice.png') });

  // The private protocol in Spanish: the demo's sample text (never an empty page); in English,
  // the admin's edit, as text, never as markup.
  await user.goto('/vanguardprivateprotocol');
  await user.waitForSelector(`.content-block h2 >> text=${es['demo-private-protocol-title']}`);
  assert.equal(await user.locator('h1').innerText(), es['menu-vanguard']);
  await user.getByRole('button', { name: es['language-en'] }).click();
  await user.waitForSelector('.content-block h2 >> text=The Vanguard protocol');
  assert.equal(await user.locator('.content-block b').count(), 0);
  assert.match(await user.locator('.content-block p').innerText(), /<b>weekly<\/b>/);
  assert.equal(await user.locator('h1').innerText(), en['menu-vanguard']);
  assert.deepEqual(user.errors, []);
});

test('NFT staking: a server failure shows the TimeOut Connections! notice', async () => {
  // A stored amount that is not a number makes statistics-nftstaking answer 500.
  execFileSync('python3', [
    '-c',
    `import sqlite3,sys
c=sqlite3.connect(sys.argv[1]); c.execute("INSERT INTO stake_positions (pool, position, user_id, wallet, kind, amount, reward, start_date, release_date, tx_hash, log_index) SELECT 'nft', 999999, user_id, wallet, 1, '1', 'lots', 0, 1, '0xbad', 0 FROM stake_positions WHERE pool = 'nft' LIMIT 1"); c.commit()`,
    join(server.dataDir, 'lvlx.sqlite3'),
  ]);
  const res = await server.call(DEMO_ADMIN, 'statistics-nftstaking', { raw: true });
  assert.equal(res.status, 500);
  const page = await pageAs(DEMO_ADMIN, '/admin/tables/NFTStaking', '[data-testid="staking-error"]');
  assert.equal(await page.locator('[data-testid="staking-error"]').innerText(), 'TimeOut Connections!');
  await page.waitForSelector('.Toastify__toast--error >> text=TimeOut Connections!');
  assert.equal(await page.locator('.Toastify__toast--error').count(), 1, 'one notice for both failed calls');
  assert.deepEqual(page.errors, []);
});
