// The admin screens as an admin uses them, in headless Chromium against a seeded server: the
// figures on screen are checked against the server's statistics and the core's answers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  adminPage as openAdminPage,
  consent,
  dateFields,
  DEMO_ADMIN,
  en,
  launchBrowser,
  localDay,
  openPage,
  path,
  settled,
  startServer,
  typeDate,
  SHOTS,
  es,
} from './harness.mjs';
import { formatTokenIn, loadIcoRows, loadUserRows, localizeNumber } from '../../src/core/index.js';

const DEMO_SECRET = ['demo-admin-secret', '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'];

let server;
let browser;
before(async () => {
  server = await startServer({
    seed: ['--users', '150', '--ico-tx', '2500', '--nft-stakes', '50', '--lvlx-stakes', '40', '--seed', '5'],
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

const adminPage = (route) => openAdminPage(browser, server, route, { clipboard: true });

/** A count as the summary boxes show it: with English digit grouping. */
const grouped = (n) => localizeNumber(String(n), 'en');
const figure = (page, box, key) =>
  page.locator(`[data-testid="${box}"] [data-key="${key}"] dd:not(.summary-help)`).innerText();
/** A column's cells by the column's id (which columns show depends on the width). */
const column = (page, id) => page.locator(`.rdt_TableRow .rdt_TableCell[data-column-id="${id}"]`).allInnerTexts();
const toastText = async (page, kind = 'success') =>
  (await page.locator(`.Toastify__toast--${kind}`).last().innerText()).replace(/\s*×$/, '');

async function rowsOf(route) {
  const res = await server.call(DEMO_ADMIN, route, { raw: true });
  return new Uint8Array(await res.arrayBuffer());
}

test('ICO table: general statistics, full range, filter, filtered totals, sort cycle, pages', async () => {
  const page = await adminPage('/admin/tables/ICO');
  const stats = await server.call(DEMO_ADMIN, 'statistics-ico?limit=1');
  assert.equal(await figure(page, 'ico-general', 'ico-total-transactions'), grouped(stats.General.totalTransactions));
  assert.equal(
    await figure(page, 'ico-general', 'ico-total-product'),
    `${formatTokenIn(stats.General.totalLVLX, 'LVLX', 'en')} LVLX`,
  );
  assert.equal(
    await figure(page, 'ico-general', 'ico-total-usdt'),
    `${localizeNumber(stats.General.totalUSDT, 'en')} USDT`,
  );

  // The date filter starts at the full range, so no filtered box.
  const offset = await page.evaluate(() => -new Date().getTimezoneOffset());
  const table = loadIcoRows(await rowsOf('statistics-ico/rows'), 'LVLX');
  const full = table.range(offset, Date.now());
  const [start, end] = await dateFields(page).evaluateAll((els) => els.map((e) => e.value));
  assert.deepEqual([start, end], [localDay(full.start), localDay(full.end)]);
  assert.equal(await page.locator('[data-testid="ico-filtered"]').count(), 0);
  assert.deepEqual(await column(page, 'n'), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);

  // Narrow to one year: the filtered box shows the core's totals for exactly that range.
  await typeDate(dateFields(page).first(), '2025-01-01');
  await typeDate(dateFields(page).last(), '2025-12-31');
  await page.waitForSelector('[data-testid="ico-filtered"]');
  const want = table.query({ start: '2025-01-01', end: '2025-12-31', offsetMinutes: offset, search: '' });
  assert.ok(want.kept > 0 && want.kept < table.length);
  assert.equal(await figure(page, 'ico-filtered', 'ico-total-transactions'), grouped(want.kept));
  assert.equal(await figure(page, 'ico-filtered', 'ico-total-users'), grouped(want.totals.totalUsers));
  assert.equal(
    await figure(page, 'ico-filtered', 'ico-total-product'),
    `${formatTokenIn(want.totals.totalLVLX, 'LVLX', 'en')} LVLX`,
  );
  const dates = await column(page, 'createdAt');
  assert.ok(
    dates.every((d) => d.includes('2025')),
    dates.join(' | '),
  );
  assert.equal(await page.locator('.page-range').innerText(), `1–10 of ${want.kept}`);

  // Sort by amount: descending, ascending, then back to date order.
  const amountHeader = page.getByRole('button', { name: /Amount/ });
  // A cell is the figure and its coin ("1,234.50 LVLX"): the figure alone.
  const amounts = async () => (await column(page, 'amount')).map((a) => Number(a.replace(/[^0-9.]/g, '')));
  await amountHeader.click();
  await page.waitForFunction(() => document.querySelector('[aria-sort="descending"]'));
  const desc = await amounts();
  assert.ok(
    desc.every((a, i) => i === 0 || desc[i - 1] >= a),
    desc.join(' '),
  );
  await amountHeader.click();
  await page.waitForFunction(() => document.querySelector('[aria-sort="ascending"]'));
  const asc = await amounts();
  assert.ok(
    asc.every((a, i) => i === 0 || asc[i - 1] <= a),
    asc.join(' '),
  );
  await amountHeader.click();
  await page.waitForFunction(() => !document.querySelector('[aria-sort="ascending"], [aria-sort="descending"]'));
  assert.equal((await column(page, 'n'))[0], '1');

  // Pages: 25 a page, then page 2 starts at N° 26.
  await page.selectOption('.page-size select', '25');
  await page.waitForFunction(() => document.querySelectorAll('.rdt_TableRow').length === 25);
  await page.getByRole('button', { name: '2', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('.rdt_TableRow .rdt_TableCell')?.innerText === '26');

  // Back to the full range: the filtered box goes.
  await page.getByRole('button', { name: en['filter-reset'] }).click();
  await page.waitForFunction(() => !document.querySelector('[data-testid="ico-filtered"]'));
  assert.deepEqual(page.errors, []);
  table.free();
});

test('ICO table: an email click copies it whole with a toast; CSV holds exactly the filtered rows', async () => {
  const page = await adminPage('/admin/tables/ICO');
  const first = page.locator('.copyable').first();
  const full = await first.getAttribute('title');
  const shown = await first.innerText();
  if (full.length > 20) assert.equal(shown, `${full.slice(0, 20)}...`);
  await first.click();
  assert.equal(await toastText(page), en['copied-email']);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), full);

  await typeDate(dateFields(page).first(), '2026-01-01');
  await page.waitForSelector('[data-testid="ico-filtered"]');
  const kept = Number((await figure(page, 'ico-filtered', 'ico-total-transactions')).replaceAll(',', ''));
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: en['table-export-csv'] }).click(),
  ]);
  const csv = readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\n');
  // The amount column mixes LVLX and USDT: its header says whose unit it is.
  const headers = await page.locator('.rdt_TableCol').allInnerTexts();
  assert.ok(
    headers.some((h) => h.includes(en['ico-amount-coin'])),
    `an amount header names its unit: ${headers.join(' | ')}`,
  );
  // The table's columns: the wallet and the transaction too (the CSV once left them out).
  assert.equal(csv[0], 'n,email,createdAt,operation,coin,amount,wallet,txHash,amountExact');
  assert.equal(csv.length - 1, kept);
  assert.ok(
    csv.slice(1).every((line) => line.split(',')[2] >= '2026-01-01'),
    'only rows from the start date on',
  );
  const lines = csv.slice(1).map((line) => line.split(','));
  // Readable amounts as the table shows them (2 decimals), and every digit in the last column
  // (no float rounding, no exponent).
  assert.ok(lines.every((f) => /^\d+\.\d\d$/.test(f[5])));
  assert.ok(lines.every((f) => /^\d+(\.\d+)?$/.test(f[8])));
  assert.ok(
    lines.some((f) => f[8].split('.')[1]?.length > 2),
    'some amount has more digits than it shows',
  );
  // Each row's wallet and transaction are the server's for its entry.
  assert.ok(
    lines.every((f) => /^0x[0-9a-fA-F]{64}$/.test(f[7])),
    'every row has its transaction',
  );
  assert.ok(lines.filter((f) => /^0x[0-9a-fA-F]{40}$/.test(f[6])).length > 0, 'wallets are written');
});

test('users table: general data, search by name or email with clear, wallet 6+4 copy, narrowed box', async () => {
  const page = await adminPage('/admin/tables/users');
  const stats = await server.call(DEMO_ADMIN, 'statistics-users?limit=1');
  assert.equal(await figure(page, 'users-general', 'users-total'), grouped(stats.General.totalUsers));
  assert.equal(await figure(page, 'users-general', 'users-with-wallet'), grouped(stats.General.totalUsersWithWallet));
  assert.equal(
    await figure(page, 'users-general', 'users-total-product-usdt'),
    `${localizeNumber(stats.General.totalUsersUSDT, 'en')} USDT`,
  );
  assert.equal(await page.locator('[data-testid="users-filtered"]').count(), 0);

  await page.getByLabel(en['users-search']).fill('JOSÉ');
  await page.waitForSelector('[data-testid="users-filtered"]');
  const table = loadUserRows(await rowsOf('statistics-users/rows'));
  const want = table.query({ search: 'JOSÉ', offsetMinutes: 0 });
  assert.equal(await figure(page, 'users-filtered', 'users-total'), grouped(want.kept));
  const names = await column(page, 'names');
  const emails = await page
    .locator('.rdt_TableRow .copyable[title*="@"]')
    .evaluateAll((els) => els.map((e) => e.title));
  names.forEach((n, i) =>
    assert.ok(n.toLowerCase().includes('josé') || emails[i].includes('josé'), `${n} ${emails[i]}`),
  );

  const wallet = page.locator('.rdt_TableRow .copyable[title^="0x"]').first();
  const address = await wallet.getAttribute('title');
  assert.equal(await wallet.innerText(), `${address.slice(0, 6)}...${address.slice(-4)}`);
  await wallet.click();
  assert.equal(await toastText(page), en['copied-wallet']);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), address);

  await page.getByRole('button', { name: en['filter-clear'] }).click();
  await page.waitForFunction(() => !document.querySelector('[data-testid="users-filtered"]'));
  assert.deepEqual(page.errors, []);
  table.free();
});

for (const { name, path, rows, general, figureKey, count } of [
  {
    name: 'users',
    path: '/admin/tables/users',
    rows: 'statistics-users',
    general: 'users-general',
    figureKey: 'users-total',
    count: (g) => g.totalUsers,
  },
  {
    name: 'ICO',
    path: '/admin/tables/ICO',
    rows: 'statistics-ico',
    general: 'ico-general',
    figureKey: 'ico-total-transactions',
    count: (g) => g.totalTransactions,
  },
]) {
  test(`${name} table: the totals and the first page show before the rows stream lands, with its progress; then the same page, interactive`, async () => {
    const page = await openPage(browser, server.url, {
      storage: await server.storageFor(DEMO_ADMIN),
      cookies: consent,
      viewport: { width: 1440, height: 1000 },
    });
    // Hold the rows stream until the preview has been looked at.
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await page.route(`**/api/v1/${rows}/rows`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(path);
    await page.getByTestId('table-preview').waitFor();
    const stats = await server.call(DEMO_ADMIN, `${rows}?limit=1`);
    assert.equal(await figure(page, general, figureKey), grouped(count(stats.General)));
    await page.getByTestId('rows-progress').getByText(en['table-loading-rows']).waitFor();
    // Settled: the preview's own lookups (the ICO entries' wallets) have answered.
    await page.waitForFunction(
      () => !document.querySelector('[data-testid="table-preview"] [aria-busy="true"] [aria-busy="true"]'),
    );
    const previewRows = await page.locator('[data-testid="table-preview"] .rdt_TableRow').allInnerTexts();
    assert.equal(previewRows.length, 10, 'the first page, from the statistics call');
    assert.equal(
      await page.locator('[data-testid="table-preview"] .sort-header').count(),
      0,
      'no sorting before the rows land',
    );
    await page.screenshot({ path: join(SHOTS, `admin-${name.toLowerCase()}-preview.png`) });
    release();
    await page.locator('.sort-header').first().waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('table-preview').count(), 0);
    await page.waitForFunction(() => !document.querySelector('.rdt_TableRow [aria-busy="true"]'));
    const loadedRows = await page.locator('.rdt_TableRow').allInnerTexts();
    assert.deepEqual(loadedRows, previewRows, "the preview was the table's own first page");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('secret key: masked and trimmed, wrong secret fails, right one reveals, fourth try refused, all audited', async () => {
  const page = await openPage(browser, server.url, { storage: await server.storageFor(DEMO_ADMIN), cookies: consent });
  await page.clock.install();
  await page.goto('/admin/secret-key');
  await settled(page);
  const input = page.getByLabel(en['secretKey.label']);
  assert.equal(await input.getAttribute('type'), 'password');
  await page.getByRole('button', { name: en['secretKey.submit'] }).click();
  assert.equal(await page.locator('.field-error').innerText(), en['validations-req']);

  // Typed as it is (an inner space included); what is sent is trimmed.
  await input.fill('  not the secret ');
  assert.equal(await input.inputValue(), '  not the secret ');
  await page.getByRole('button', { name: en['secretKey.submit'] }).click();
  assert.equal(await toastText(page, 'error'), en['secretKey.failed']);
  // The toggle names the secret, not a password.
  await page.getByRole('button', { name: en['secretKey.show'] }).click();
  assert.equal(await input.getAttribute('type'), 'text');
  await page.getByRole('button', { name: en['secretKey.hide-secret'] }).click();

  await input.fill(` ${DEMO_SECRET[0]}  `);
  await page.getByRole('button', { name: en['secretKey.submit'] }).click();
  assert.equal(await toastText(page), en['secretKey.success']);
  // The refusal before it leaves with the success: no red toast stacked over the green one.
  await page.waitForFunction(() => !document.querySelector('.Toastify__toast--error'));
  // The key in a read-only box of its own (the masked field emptied), copied by a button, hidden
  // again after a minute.
  const box = page.getByTestId('revealed-key');
  assert.equal(await box.locator('textarea').inputValue(), DEMO_SECRET[1]);
  assert.equal(await box.locator('textarea').getAttribute('readonly'), '');
  assert.equal(await input.inputValue(), '');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await box.getByRole('button', { name: en['secretKey.copy'] }).click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), DEMO_SECRET[1]);
  await page.clock.runFor(61_000);
  await box.waitFor({ state: 'detached' });

  await input.fill('third try');
  await page.getByRole('button', { name: en['secretKey.submit'] }).click();
  await page.waitForFunction(() => document.querySelectorAll('.Toastify__toast--error').length >= 1);
  await input.fill(DEMO_SECRET[0]);
  await page.getByRole('button', { name: en['secretKey.submit'] }).click();
  await page.waitForFunction(
    (text) => [...document.querySelectorAll('.Toastify__toast--error')].some((t) => t.innerText.startsWith(text)),
    en['error-rate-limit'],
  );
  assert.notEqual(await input.inputValue(), DEMO_SECRET[1]);

  const audit = server.sql('SELECT outcome FROM secret_audit ORDER BY id').map(([o]) => o);
  assert.deepEqual(audit, ['wrong-secret', 'revealed', 'wrong-secret', 'rate-limited']);
  // The revealed key never reached the server's log or the page's storage.
  assert.ok(!(await page.evaluate((k) => JSON.stringify(localStorage).includes(k), DEMO_SECRET[1])));
  // The audit tells a refused reveal from a granted one on the row itself, not in closed JSON;
  // choosing the subject filters at once.
  await page.goto('/admin/audit');
  await settled(page);
  await page.getByLabel(en['audit-subject']).selectOption('secret-reveal');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=audit-row]').length === 4);
  const outcomes = await page
    .getByTestId('audit-outcome')
    .evaluateAll((marks) => marks.map((m) => [m.dataset.outcome, m.innerText, getComputedStyle(m).color]));
  assert.deepEqual(
    outcomes.map(([o, text]) => [o, text]),
    [
      ['rate-limited', en['audit-outcome-rate-limited']],
      ['wrong-secret', en['audit-outcome-wrong-secret']],
      ['revealed', en['audit-outcome-revealed']],
      ['wrong-secret', en['audit-outcome-wrong-secret']],
    ],
  );
  assert.notEqual(outcomes[2][2], outcomes[1][2], 'a granted reveal is not coloured as a refused one');
});

test('a member is kept out of every admin screen', async () => {
  const { DEMO_USER } = await import('./harness.mjs');
  const page = await openPage(browser, server.url, { storage: await server.storageFor(DEMO_USER), cookies: consent });
  for (const route of ['/admin/tables/ICO', '/admin/tables/users', '/admin/secret-key']) {
    await page.goto(route);
    await page.waitForURL('**/dashboard');
    assert.equal(path(page), '/dashboard');
  }
});

test('no date typed into an admin filter can break a table: reversed, malformed, far-future, empty and rapid changes', async () => {
  for (const route of ['/admin/tables/ICO', '/admin/tables/users', '/admin/tables/NFTStaking']) {
    const page = await adminPage(route);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const [startField, endField] = [dateFields(page).first(), dateFields(page).last()];
    const shownRows = () => page.locator('.rdt_TableRow').count();
    const before = await shownRows();
    // Reversed: explained beside the fields; the table keeps its last good rows.
    await typeDate(endField, '2023-01-01');
    await typeDate(startField, '2024-06-30');
    await page.getByTestId('filter-error').filter({ hasText: en['error-date-range'] }).waitFor();
    assert.equal(await startField.getAttribute('aria-invalid'), 'true');
    assert.ok((await shownRows()) > 0, `${route}: rows stay on screen`);
    // Put right: the message goes.
    await typeDate(startField, '2022-06-30');
    await page.waitForFunction(() => document.querySelector('[data-testid="filter-error"]')?.textContent === '');
    // A five-digit year typed by keyboard, an impossible day, half a date: said beside the
    // fields, the table untouched.
    const rowsBefore = await shownRows();
    for (const typed of ['01/01/20245', '02/30/2024', '01/0']) {
      await startField.fill('');
      await startField.pressSequentially(typed, { delay: 5 });
      await page.getByTestId('filter-error').filter({ hasText: en['error-date-malformed'] }).waitFor();
      assert.equal(await startField.getAttribute('aria-invalid'), 'true', typed);
      assert.equal(await shownRows(), rowsBefore, `${route}: ${typed} leaves the table as it was`);
    }
    // A far future, an emptied start.
    await typeDate(startField, '2022-06-30');
    await typeDate(endField, '9999-12-31');
    await startField.fill('');
    // Rapid changes, reversed and not.
    for (let i = 0; i < 12; i++) {
      await typeDate(startField, i % 2 ? '2026-12-31' : '2021-01-01');
      await typeDate(endField, i % 3 ? '2021-06-01' : '2026-12-31');
    }
    await page.getByRole('button', { name: en['filter-reset'] }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="filter-error"]')?.textContent === '');
    assert.equal(await page.getByText(en['error-unexpected']).count(), 0, `${route}: no router error page`);
    assert.equal(await shownRows(), before, `${route}: the full range shows again`);
    assert.deepEqual(errors, [], `${route}: no page error`);
    await page.context().close();
  }
});

test('admin tables grow with the page under a sticky header where their columns fit, on the theme surface, with whole emails and words; wider ones scroll sideways inside', async () => {
  // The ICO table's eight columns fit a wide screen: the table grows with the page under a
  // sticky header.
  const page = await adminPage('/admin/tables/ICO');
  await page.setViewportSize({ width: 1680, height: 1000 });
  await page.locator('.page-size select').first().selectOption('100');
  await page.waitForFunction(() => document.querySelectorAll('.data-table .rdt_TableRow').length > 50);
  await page.locator('.data-table.fits').waitFor({ timeout: 5000 });
  const facts = await page.evaluate(() => {
    const table = document.querySelector('.data-table');
    const boxes = [...table.querySelectorAll('*')].filter(
      (e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowY) && e.scrollHeight > e.clientHeight + 1,
    );
    const row = table.querySelector('.rdt_TableRow');
    const surface = getComputedStyle(document.documentElement).getPropertyValue('--surface').trim();
    const probe = document.createElement('div');
    probe.style.background = surface;
    document.body.append(probe);
    const want = getComputedStyle(probe).backgroundColor;
    probe.remove();
    const email = table.querySelector('.rdt_TableRow .copyable[title*="@"]');
    const heads = [...table.querySelectorAll('.rdt_TableCol')].map((h) => h.innerText);
    return {
      innerScroll: boxes.length,
      rows: table.querySelectorAll('.rdt_TableRow').length,
      tableHeight: table.getBoundingClientRect().height,
      rowBg: getComputedStyle(row).backgroundColor,
      want,
      emailLines: email.getBoundingClientRect().height / (parseFloat(getComputedStyle(email).fontSize) * 1.6),
      heads,
    };
  });
  assert.equal(facts.innerScroll, 0, 'no scroll box inside the table');
  assert.ok(facts.tableHeight > 50 * 40, `the table grows with its ${facts.rows} rows (${facts.tableHeight} px)`);
  assert.equal(facts.rowBg, facts.want, 'rows on the theme surface');
  assert.ok(facts.emailLines <= 1, `an email stays on one line (${facts.emailLines})`);
  // Keyboard focus shows the whole email in place of the short one.
  await page.locator('.rdt_TableRow .copyable[title*="@"]').first().focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement.innerText === document.activeElement.title);
  assert.ok(focused, 'the whole email on focus');
  // Scrolled far down, the header is still at the top of the window.
  await page.mouse.wheel(0, 3000);
  await page.waitForFunction(
    () => Math.abs(document.querySelector('.data-table .rdt_head').getBoundingClientRect().top) < 2,
  );
  // The users table's main columns fit a wide screen and a laptop (the column menu adds the
  // rest: admin-layout.test.mjs), the last, KYC and its action, in view; the page itself does not
  // move sideways.
  await page.goto('/admin/tables/users');
  await page.waitForSelector('.rdt_TableRow');
  for (const width of [1680, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    // The table re-measures whether its columns fit after the resize (a ResizeObserver), and its
    // optional columns settle to the new width.
    await page
      .waitForFunction(
        (w) => {
          const box = document.querySelector('.data-table');
          return (
            window.innerWidth === w &&
            document.documentElement.scrollWidth <= document.documentElement.clientWidth &&
            box.classList.contains('fits') &&
            box.querySelector('.rdt_table').scrollWidth <= box.clientWidth + 1
          );
        },
        width,
        { timeout: 15_000 },
      )
      .catch(() => {});
    const narrow = await page.evaluate(() => {
      const wrapper = document.querySelector('.data-table .rdt_responsiveWrapper');
      const vw = document.documentElement.clientWidth;
      const wide = [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > vw + 1)
        .slice(0, 5)
        .map((el) => `${el.tagName}.${el.className}`);
      return { page: document.documentElement.scrollWidth - vw, overflow: getComputedStyle(wrapper).overflowX, wide };
    });
    assert.ok(
      narrow.page <= 0,
      `the page does not scroll sideways at ${width} px (${narrow.page} px: ${narrow.wide.join(', ')})`,
    );
    assert.equal(narrow.overflow, 'visible', `the main columns fit at ${width} px`);
    const last = page.locator('.rdt_TableRow').first().locator('.kyc-cell button');
    await last.scrollIntoViewIfNeeded();
    assert.ok(await last.isVisible(), `the last column is reachable at ${width} px`);
  }
  // On a phone the rows are cards: every column a labelled line, the KYC action in view.
  await page.setViewportSize({ width: 390, height: 844 });
  const card = page.locator('.row-card').first();
  await card.waitFor();
  assert.ok(await card.locator('.kyc-cell button').isVisible(), 'the KYC action in the first card');
  assert.ok(await card.getByText(en['users-kyc'], { exact: true }).isVisible(), 'each line says what it is');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scroll');
  await page.screenshot({ path: join(SHOTS, 'admin-users-390.png') });
  await page.context().close();
});

test('a filter that keeps nothing says so with the way back; the filtered box appears only under a filter, with no empty space kept for it', async () => {
  const page = await adminPage('/admin/tables/ICO');
  await page.waitForSelector('.rdt_TableRow');
  // From the toolbar's bottom to the table's top: the column bar only, until a filter narrows.
  const gap = () =>
    page.evaluate(
      () =>
        document.querySelector('.data-table').getBoundingClientRect().top -
        document.querySelector('[data-testid="table-tools"]').getBoundingClientRect().bottom,
    );
  const before = await gap();
  assert.ok(before < 110, `no empty box under the toolbar, the column bar only (${before} px)`);
  await typeDate(dateFields(page).first(), '2026-01-01');
  await page.waitForSelector('[data-testid="ico-filtered"]');
  assert.ok((await gap()) > before + 100, 'the filtered totals between the toolbar and the table');
  await page.goto('/admin/tables/users');
  await page.waitForSelector('.rdt_TableRow');
  await page.getByLabel(en['users-search']).fill('no such member anywhere');
  // (The ICO table is searched by email too: web/test/browser/admin.test.mjs 'ICO search'.)
  const none = page.getByTestId('table-no-results');
  await none.waitFor();
  assert.match(await none.innerText(), new RegExp(en['table-no-results']));
  await none.getByRole('button', { name: en['filter-reset-all'] }).click();
  await page.waitForSelector('.rdt_TableRow');
  assert.equal(await page.getByLabel(en['users-search']).inputValue(), '');
  await page.context().close();
});

test('keyboard: a skip link first, one Tab stop per table row, arrow keys inside the table', async () => {
  const page = await adminPage('/admin/tables/users');
  await page.waitForSelector('.rdt_TableRow');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
  assert.equal(await page.evaluate(() => document.activeElement.innerText), en['skip-to-content']);
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'main');
  await page.locator('.page-size select').first().selectOption('100');
  await page.waitForFunction(() => document.querySelectorAll('.data-table .rdt_TableRow').length > 50);
  const stops = await page.evaluate(() => {
    const table = document.querySelector('.data-table');
    const rows = table.querySelectorAll('.rdt_TableRow').length;
    const tabbable = [...table.querySelectorAll('.rdt_TableRow button, .rdt_TableRow a[href]')].filter(
      (e) => e.tabIndex >= 0,
    ).length;
    return { rows, tabbable };
  });
  assert.equal(stops.tabbable, stops.rows, 'one Tab stop per row');
  // Arrows: right to the row's wallet, down to the next row's wallet, left to its email.
  const email = page.locator('.rdt_TableRow').first().locator('.copyable[title*="@"]');
  await email.focus();
  await page.keyboard.press('ArrowRight');
  const active = () => page.evaluate(() => document.activeElement.title);
  assert.match(await active(), /^0x/);
  await page.keyboard.press('ArrowDown');
  const second = await page
    .locator('.rdt_TableRow')
    .nth(1)
    .locator('.copyable')
    .evaluateAll((els) => els.map((e) => e.title));
  assert.ok(second.includes(await active()));
  await page.keyboard.press('Home');
  assert.equal(await active(), await email.getAttribute('title'));
  await page.context().close();
});

test("ICO search: by email, with the core's totals of the kept rows, cleared by one button", async () => {
  const page = await adminPage('/admin/tables/ICO');
  await page.waitForSelector('.rdt_TableRow');
  const email = await page.locator('.rdt_TableRow .copyable[title*="@"]').first().getAttribute('title');
  const needle = email.split('@')[0].toUpperCase();
  const table = loadIcoRows(
    new Uint8Array(await (await server.call(DEMO_ADMIN, 'statistics-ico/rows', { raw: true })).arrayBuffer()),
    'LVLX',
  );
  const want = table.query({ search: needle, offsetMinutes: 0 });
  table.free();
  await page.getByLabel(en['ico-search']).fill(needle);
  await page.waitForSelector('[data-testid="ico-filtered"]');
  assert.equal(Number((await figure(page, 'ico-filtered', 'ico-total-transactions')).replaceAll(',', '')), want.kept);
  const shown = await page.locator('.rdt_TableRow .copyable[title*="@"]').evaluateAll((els) => els.map((e) => e.title));
  assert.ok(shown.length > 0 && shown.every((e) => e.toUpperCase().includes(needle)));
  await page.getByRole('button', { name: en['filter-clear'] }).click();
  await page.waitForSelector('[data-testid="ico-filtered"]', { state: 'detached' });
  await page.context().close();
});

test('charts: a time axis with every period, grouped by week or month for long ranges, read by pointer and keyboard', async () => {
  const page = await adminPage('/admin/tables/ICO');
  const offset = await page.evaluate(() => -new Date().getTimezoneOffset());
  const table = loadIcoRows(await rowsOf('statistics-ico/rows'), 'LVLX');
  const full = table.range(offset, Date.now());
  table.query({ start: full.start, end: full.end, offsetMinutes: offset, search: '' });
  const long = table.series(offset);
  // The seed spans years: drawn by month, every month present, the sums those of the kept rows.
  assert.equal(long.grain, 'month');
  assert.equal(
    long.points.reduce((n, p) => n + p.purchases, 0),
    table.query({ start: full.start, end: full.end, offsetMinutes: offset, search: '' }).totals.totalBuyTransactions,
  );
  const canvas = page.getByTestId('chart-canvas');
  await canvas.locator('canvas').waitFor();
  assert.match(await page.locator('.time-chart figcaption').innerText(), new RegExp(en['chart-by-month']));

  // Keyboard: Home reads the first month, End the last, arrows step; the figures are the core's.
  const readout = page.getByTestId('chart-readout');
  assert.equal(await readout.innerText(), en['chart-hint']);
  await canvas.focus();
  await page.keyboard.press('Home');
  const first = long.points[0];
  const monthName = (start) =>
    new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${start}T00:00:00Z`),
    );
  const text = (p) =>
    `${monthName(p.start)}: ${localizeNumber(p.usdt, 'en')} USDT · ${formatTokenIn(p.lvlx, 'LVLX', 'en')} LVLX · purchases: ${p.purchases}`;
  assert.equal(await readout.innerText(), text(first));
  await page.keyboard.press('ArrowRight');
  assert.equal(await readout.innerText(), text(long.points[1]));
  await page.keyboard.press('End');
  assert.equal(await readout.innerText(), text(long.points.at(-1)));

  // Pointer: hovering over the plot reads the period under it.
  const plot = await canvas.locator('.u-over').boundingBox();
  await page.mouse.move(plot.x + plot.width / 2, plot.y + plot.height / 2);
  await page.waitForFunction(() => !document.querySelector('[data-testid="chart-readout"] .muted'));
  const hovered = await readout.innerText();
  assert.ok(
    long.points.some((p) => hovered === text(p)),
    hovered,
  );

  // Ten days: by day, ten bars, empty days included.
  await typeDate(dateFields(page).first(), '2025-03-01');
  await typeDate(dateFields(page).last(), '2025-03-10');
  await page.waitForFunction(
    (label) => document.querySelector('.time-chart figcaption')?.innerText.includes(label),
    en['chart-by-day'],
  );
  table.query({ start: '2025-03-01', end: '2025-03-10', offsetMinutes: offset, search: '' });
  const days = table.series(offset);
  assert.equal(days.grain, 'day');
  await canvas.focus();
  await page.keyboard.press('Home');
  const dayName = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${days.points[0].start}T00:00:00Z`),
  );
  assert.match(await readout.innerText(), new RegExp(`^${dayName}: `));
  // Half a year: by week, each starting on a Monday.
  await typeDate(dateFields(page).first(), '2025-01-01');
  await typeDate(dateFields(page).last(), '2025-06-30');
  await page.waitForFunction(
    (label) => document.querySelector('.time-chart figcaption')?.innerText.includes(label),
    en['chart-by-week'],
  );
  table.query({ start: '2025-01-01', end: '2025-06-30', offsetMinutes: offset, search: '' });
  const weeks = table.series(offset);
  assert.equal(weeks.grain, 'week');
  assert.ok(weeks.points.every((p) => new Date(`${p.start}T00:00:00Z`).getUTCDay() === 1));
  // The axis runs to the end of the last week, so its bar shows whole (it ended at its start).
  const lastWeek = Date.parse(`${weeks.points.at(-1).start}T00:00:00Z`) / 1000;
  await page.waitForFunction(
    (end) => document.querySelector('[data-x-range]')?.dataset.xRange.endsWith(` ${end}`),
    lastWeek + 7 * 86_400,
  );
  await canvas.focus();
  await page.keyboard.press('End');
  assert.match(await readout.innerText(), /^Week of /);
  // The whole page from its top: photographed scrolled to the chart, the side menu and the
  // table's sticky header stood half-way down it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, 'admin-ico-chart-weeks.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  table.free();
  await page.context().close();
});

test('ICO rows show the buying wallet and the transaction of each entry on the page', async () => {
  const page = await adminPage('/admin/tables/ICO');
  const table = loadIcoRows(await rowsOf('statistics-ico/rows'), 'LVLX');
  const shown = table.page(0, 10);
  table.free();
  const trails = await server.call(DEMO_ADMIN, `statistics-ico/trails?ids=${shown.map((r) => r.id).join(',')}`);
  const byId = new Map(trails.map((t) => [t.id, t]));
  await page.waitForFunction(() => document.querySelectorAll('.rdt_TableRow [title^="0x"]').length >= 10);
  const cells = await page
    .locator('.rdt_TableRow')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('[title^="0x"]')].map((e) => e.title)));
  cells.forEach((titles, i) => {
    const want = byId.get(shown[i].id);
    assert.deepEqual(titles, [want.wallet, want.txHash].filter(Boolean), `row ${i + 1}`);
  });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("date fields are written in the page's language: dd/mm/aaaa in Spanish, with a calendar button", async () => {
  const page = await openPage(browser, server.url, {
    storage: { ...(await server.storageFor(DEMO_ADMIN)), language: 'es' },
    cookies: consent,
    viewport: { width: 390, height: 844 },
  });
  await page.goto('/admin/tables/ICO');
  await page.waitForSelector('.row-card', { timeout: 30_000 });
  const offset = await page.evaluate(() => -new Date().getTimezoneOffset());
  const table = loadIcoRows(await rowsOf('statistics-ico/rows'), 'LVLX');
  const full = table.range(offset, Date.now());
  const [start, end] = [dateFields(page).first(), dateFields(page).last()];
  assert.equal(await start.inputValue(), localDay(full.start, 'es'));
  assert.equal(await start.getAttribute('placeholder'), 'dd/mm/aaaa');
  // 31/12/2025 is the last day of 2025 (not a 31st month).
  await start.fill('01/12/2025');
  await end.fill('31/12/2025');
  await page.waitForSelector('[data-testid="ico-filtered"]');
  const want = table.query({ start: '2025-12-01', end: '2025-12-31', offsetMinutes: offset, search: '' });
  assert.equal(await figure(page, 'ico-filtered', 'ico-total-transactions'), grouped(want.kept));
  // Written the English way round, it is not a date here.
  await end.fill('12/31/2025');
  await page.getByTestId('filter-error').filter({ hasText: es['error-date-malformed'] }).waitFor();
  // The calendar button is a named, focusable control next to each field.
  const pick = page.getByRole('button', { name: es['date-pick'].replace('{{field}}', es['filter-start']) });
  await pick.focus();
  assert.equal(await pick.evaluate((b) => b === document.activeElement), true);
  await page.getByRole('button', { name: es['filter-reset'] }).click();
  assert.equal(await end.inputValue(), localDay(full.end, 'es'));
  await page.waitForFunction(() => document.querySelector('[data-testid="filter-error"]')?.textContent === '');
  await page.screenshot({ path: join(SHOTS, 'admin-ico-es-390.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  table.free();
  await page.context().close();
});
