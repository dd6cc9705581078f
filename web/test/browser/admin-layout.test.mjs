// The admin workspace's shape, measured in headless Chromium: every table's main columns fit a
// 1280 px laptop, the column menu brings the rest (remembered per admin) with the first columns
// kept in view and a cue that more wait to the right, every page lays out its toolbar in one
// order, and a refused date range leaves the last good one applied and named.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { join } from 'node:path';
import {
  adminPage as openAdminPage,
  dateFields,
  DEMO_ADMIN,
  en,
  launchBrowser,
  localDay,
  openPage,
  settled,
  startServer,
  typeDate,
  SHOTS,
} from './harness.mjs';

/** Every admin page with a table, and the tables it holds. */
const TABLE_PAGES = [
  ['/admin/tables/users', 1],
  ['/admin/tables/ICO', 1],
  ['/admin/activation-node', 1],
  ['/admin/tables/NFTStaking', 2],
  ['/admin/tables/LVLXStaking', 2],
];
/** The toolbar's one order; a page shows the tools its table has. */
const TOOL_ORDER = ['search', 'dates', 'filter'];

let server;
let browser;
before(async () => {
  server = await startServer({
    seed: ['--users', '60', '--ico-tx', '300', '--nft-stakes', '30', '--lvlx-stakes', '30', '--seed', '7'],
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

const adminPage = (route, width = 1280) => openAdminPage(browser, server, route, { width, height: 900 });

/** Per table on the page: whether it fits its box, and its column count. */
const measure = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.data-table')].map((box) => {
      const table = box.querySelector('.rdt_table');
      return {
        fits: table.scrollWidth <= box.clientWidth + 1,
        columns: box.querySelectorAll('.rdt_TableCol').length,
        overflow: table.scrollWidth - box.clientWidth,
      };
    }),
  );

test('every admin table shows its main columns without sideways scrolling at 1280 and 1440 px', async () => {
  for (const [route, count] of TABLE_PAGES) {
    const page = await adminPage(route);
    const shown = {};
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      // Measured, not read from a class that may still be the last width's: the boxes at the new
      // width, once their columns and widths have stayed the same for half a second (optional
      // columns settle in a few renders).
      await page
        .waitForFunction(
          ([n, w]) => {
            const boxes = [...document.querySelectorAll('.data-table')];
            const now = performance.now();
            const shape = JSON.stringify([
              window.innerWidth,
              boxes.map((b) => [
                b.clientWidth,
                b.querySelectorAll('.rdt_TableCol').length,
                b.querySelector('.rdt_table')?.scrollWidth,
              ]),
            ]);
            if (window.lastShape !== shape) {
              window.lastShape = shape;
              window.shapeSince = now;
              return false;
            }
            return boxes.length === n && window.innerWidth === w && now - window.shapeSince >= 500;
          },
          [count, width],
          { timeout: 15_000, polling: 100 },
        )
        .catch(() => {});
      const tables = await measure(page);
      assert.equal(tables.length, count, route);
      for (const [i, t] of tables.entries())
        assert.ok(t.fits, `${route} table ${i + 1} fits at ${width} px (${t.overflow} px over, ${t.columns} columns)`);
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
        `${route}: the page does not scroll sideways at ${width} px`,
      );
      assert.equal(await page.getByTestId('table-more-columns').first().innerText(), '', 'no cue when all fits');
      shown[width] = tables[0].columns;
    }
    // The wider screen's room goes to optional columns (each table's main ones fit 1280).
    if (route === '/admin/tables/users')
      assert.ok(
        shown[1440] > shown[1280],
        `users: more columns at 1440 px (${shown[1440]}) than at 1280 (${shown[1280]})`,
      );
    await page.context().close();
  }
});

test('the column menu adds the rest, remembered per admin; the first columns stay in view while the rest scrolls', async () => {
  const page = await adminPage('/admin/tables/users');
  const menu = page.getByTestId('column-chooser');
  await menu.locator('summary').click();
  const boxes = menu.getByRole('checkbox');
  const n = await boxes.count();
  assert.ok(n >= 3, 'the users table has optional columns');
  for (let i = 0; i < n; i++) await boxes.nth(i).check();
  await menu.locator('summary').click();
  await page.getByRole('columnheader', { name: en['users-add-rewards'].replace('{{product}}', 'LVLX') }).waitFor();
  // Every column now: more than a laptop holds. The cue says so and a shade marks the edge.
  await page.locator('.data-table.more-right').waitFor({ timeout: 5000 });
  assert.equal(await page.getByTestId('table-more-columns').innerText(), en['table-more-columns']);
  const x = (selector) => page.evaluate((s) => document.querySelector(s).getBoundingClientRect().left, selector);
  const firstBefore = await x('.rdt_TableRow .rdt_TableCell:nth-child(1)');
  const secondBefore = await x('.rdt_TableRow .rdt_TableCell:nth-child(2)');
  const action = page.locator('.rdt_TableRow').first().locator('.kyc-cell button');
  await action.scrollIntoViewIfNeeded();
  // Reachable means inside the table's box (not just rendered past its clipped edge), and right
  // of the pinned columns, which would cover it.
  const [button, box, pinned] = await Promise.all([
    action.boundingBox(),
    page.locator('.data-table').boundingBox(),
    page.locator('.rdt_TableRow').first().locator('.rdt_TableCell').nth(1).boundingBox(),
  ]);
  assert.ok(
    button.x >= pinned.x + pinned.width && button.x + button.width <= box.x + box.width + 1,
    `the last column (KYC and its action) is in view: ${JSON.stringify({ button, box, pinned })}`,
  );
  assert.equal(await x('.rdt_TableRow .rdt_TableCell:nth-child(1)'), firstBefore, 'N° stays in view');
  assert.equal(await x('.rdt_TableRow .rdt_TableCell:nth-child(2)'), secondBefore, 'the name stays in view');
  await page.locator('.data-table:not(.more-right)').waitFor({ timeout: 5000 });
  await page.screenshot({ path: join(SHOTS, 'admin-users-all-columns-1280.png') });
  // The menu closes as menus do: Escape, and a click outside it.
  await menu.locator('summary').click();
  await page.keyboard.press('Escape');
  assert.equal(await menu.evaluate((m) => m.open), false, 'Escape closes the column menu');
  assert.ok(await menu.locator('summary').evaluate((s) => s === document.activeElement), 'focus back on its button');
  await menu.locator('summary').click();
  await page.locator('h1').click();
  assert.equal(await menu.evaluate((m) => m.open), false, 'a click outside closes it');
  // The choice outlives the page and the session: the admin signs out and in again.
  await page.reload();
  await page.waitForSelector('.rdt_TableRow');
  await page.getByRole('columnheader', { name: en['users-add-rewards'].replace('{{product}}', 'LVLX') }).waitFor();
  await page.getByRole('button', { name: en['menu-exit'] }).click();
  await page.getByRole('dialog').getByRole('button', { name: en['logout-confirm-yes'] }).click();
  await page.getByTestId('signed-out').filter({ hasText: en['logout-success'] }).waitFor();
  const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('admin@lvlx.local')));
  assert.equal(kept.length, 1, 'kept under the admin who chose, after signing out');
  const again = await server.storageFor(DEMO_ADMIN, { fresh: true });
  await page.evaluate((values) => {
    for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v);
  }, again);
  await page.goto('/admin/tables/users');
  await page.waitForSelector('.rdt_TableRow');
  await page.getByRole('columnheader', { name: en['users-add-rewards'].replace('{{product}}', 'LVLX') }).waitFor();
  // Back to the main columns: they fit again.
  await menu.locator('summary').click();
  for (let i = 0; i < n; i++) await boxes.nth(i).uncheck();
  await page.locator('.data-table.fits').waitFor({ timeout: 5000 });
  await page.context().close();
});

test('every admin page lays out its general figures, toolbar and table in one order', async () => {
  for (const [route] of TABLE_PAGES) {
    const page = await adminPage(route);
    // The general figures come with their own request, which may arrive after the rows.
    await page.locator('.summary-box').first().waitFor();
    const shape = await page.evaluate(() => {
      const bars = [...document.querySelectorAll('[data-testid="table-tools"]')];
      const tools = bars.map((bar) => [...bar.querySelectorAll('[data-tool]')].map((e) => e.dataset.tool));
      const follows = (a, b) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
      const general = document.querySelector('.summary-box');
      const table = document.querySelector('.data-table');
      // Under each toolbar: its table next (the filtered box only once a filter narrows).
      const next = bars.map((bar) => {
        let e = bar.nextElementSibling;
        while (e && e.classList.contains('table-bar')) e = e.nextElementSibling;
        return e?.className ?? '';
      });
      // Each table's bar: its column menu (where it has optional columns), then its CSV.
      const actions = [...document.querySelectorAll('.table-bar .table-actions')].map((bar) =>
        [...bar.children].map((e) => e.dataset.tool ?? e.dataset.testid),
      );
      return {
        tools,
        actions,
        generalFirst: Boolean(general) && follows(general, bars[0]) && follows(bars[0], table),
        next,
      };
    });
    assert.ok(shape.generalFirst, `${route}: general figures, then the toolbar, then the table`);
    for (const tools of shape.tools) {
      const order = tools.map((tool) => TOOL_ORDER.indexOf(tool));
      assert.ok(!order.includes(-1), `${route}: known tools ${tools}`);
      assert.deepEqual(
        order,
        [...order].sort((a, b) => a - b),
        `${route}: tools in order (${tools})`,
      );
    }
    assert.ok(shape.actions.length >= 1, `${route}: a bar over each table`);
    for (const actions of shape.actions) assert.equal(actions.at(-1), 'csv', `${route}: CSV last (${actions})`);
    for (const next of shape.next) assert.match(next, /data-table/, `${route}: no empty box before the table`);
    await page.context().close();
  }
});

test('a reversed range keeps the table, totals and CSV at the last valid range and says which', async () => {
  const page = await adminPage('/admin/tables/ICO');
  const [startField, endField] = [dateFields(page).first(), dateFields(page).last()];
  const range = () => page.locator('.page-range').first().innerText();
  await typeDate(endField, '2025-12-31');
  await page.getByTestId('ico-filtered').waitFor();
  const kept = { range: await range(), totals: await page.getByTestId('ico-filtered').innerText() };
  const toolbar = await page.getByTestId('table-tools').boundingBox();
  const csvAt = await page.locator('[data-tool="csv"]').boundingBox();
  await typeDate(startField, '2026-03-01');
  await page.getByTestId('filter-error').filter({ hasText: en['error-date-range'] }).waitFor();
  const note = await page.getByTestId('filter-kept').innerText();
  assert.ok(note.includes(localDay('2025-12-31')), `the note names the range still applied: ${note}`);
  assert.equal(await range(), kept.range, 'the table stays at the last valid range');
  assert.equal(await page.getByTestId('ico-filtered').innerText(), kept.totals, 'and so do its totals');
  const [csvNow, menuNow] = await Promise.all([
    page.locator('[data-tool="csv"]').boundingBox(),
    page.getByTestId('column-chooser').boundingBox(),
  ]);
  assert.equal(csvNow.x, csvAt.x, 'the CSV button keeps its place while the error shows');
  assert.ok(Math.abs(csvNow.y - menuNow.y) < 4, 'beside the column menu, on the bar over the table');
  assert.ok((await page.getByTestId('table-tools').boundingBox()).width <= toolbar.width + 1);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-tool="csv"]').click()]);
  assert.match(download.suggestedFilename(), /2025-12-31\.csv$/, 'the CSV is named for the applied range');
  await page.screenshot({ path: join(SHOTS, 'admin-ico-reversed-1280.png') });
  // A search typed while the range is refused still applies, over the range kept.
  const rows = page.locator('.rdt_TableRow');
  const email = (await rows.first().locator('[data-column-id="email"]').innerText()).trim();
  await page.getByLabel(en['ico-search']).fill(email.slice(0, 6));
  await page.waitForFunction(
    (before) => document.querySelector('[data-testid="ico-filtered"]')?.innerText !== before,
    kept.totals,
  );
  assert.equal(await page.getByTestId('filter-kept').innerText(), note, 'still the last valid range');
  for (const cell of await rows.locator('[data-column-id="email"]').allInnerTexts())
    assert.ok(cell.includes(email.slice(0, 6)), `every row matches the search: ${cell}`);
  await page.context().close();
});

test('the cookie banner leaves the Exit button in reach at 1400 × 900 until consent is given', async () => {
  const page = await openPage(browser, server.url, {
    storage: await server.storageFor(DEMO_ADMIN),
    viewport: { width: 1400, height: 900 },
  });
  await page.goto('/admin/tables/users');
  await settled(page);
  await page.getByRole('region', { name: en['cookie-label'] }).waitFor();
  const exit = page.getByRole('button', { name: en['menu-exit'] });
  await exit.scrollIntoViewIfNeeded();
  // What a click at the button's centre lands on is the button, not the banner over it.
  const hit = await exit.evaluate((button) => {
    const r = button.getBoundingClientRect();
    return button.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
  });
  assert.ok(hit, 'Exit is not under the cookie banner');
  await page.screenshot({ path: join(SHOTS, 'admin-cookie-banner-1400.png') });
  await page.context().close();
});

test('the pages under a table never hide a single page behind an ellipsis', async () => {
  const page = await adminPage('/admin/tables/ICO');
  const nav = page.getByRole('navigation', { name: en['table-pages'] });
  for (const n of ['3', '5', '7']) await nav.getByRole('button', { name: n, exact: true }).click();
  await nav.locator('[aria-current="page"]', { hasText: '7' }).waitFor();
  const items = await nav.locator('.page-button:not([aria-label]), .page-gap').allInnerTexts();
  // Page 7 of many: 1–3 at the start, 5–9 around it, and page 4 between them shown, not "…".
  assert.deepEqual(items.slice(0, 9), ['1', '2', '3', '4', '5', '6', '7', '8', '9'], items.join(' '));
  items.forEach((item, i) => {
    if (item === '…') assert.ok(Number(items[i + 1]) - Number(items[i - 1]) > 2, `"…" hides pages: ${items}`);
    else if (i > 0 && items[i - 1] !== '…') assert.equal(Number(item), Number(items[i - 1]) + 1, items.join(' '));
  });
  await page.context().close();
});

test('a count chart steps by whole numbers and days, and its logarithmic scale starts at one', async () => {
  // A reader in Brazil: the periods are UTC days, and so are the axis's steps.
  const page = await openAdminPage(browser, server, '/admin/tables/users', {
    width: 1440,
    height: 900,
    timezoneId: 'America/Sao_Paulo',
  });
  const canvas = page.getByTestId('chart-canvas');
  await canvas.locator('canvas').waitFor();
  const ticks = async () => (await canvas.getAttribute('data-y-ticks')).split(' ').map(Number);
  await page.waitForFunction(() => document.querySelector('[data-y-ticks]'));
  // The time axis names each date once: one day of registrations (the table's first range) was
  // labelled with its date a dozen times, uPlot stepping by hours.
  const dates = (await canvas.getAttribute('data-x-ticks')).split('|');
  assert.equal(new Set(dates).size, dates.length, `each date once: ${dates}`);
  const utcDays = async () => (await canvas.getAttribute('data-x-splits')).split(' ').map(Number);
  assert.ok(
    (await utcDays()).every((s) => s % 86_400 === 0),
    `ticks at UTC midnights: ${await utcDays()}`,
  );
  // The last 30 days: drawn by day, a registration or none a day, where a plain axis would step
  // by 0.2 (the whole years' months step by whole numbers anyway).
  const [startField, endField] = [dateFields(page).first(), dateFields(page).last()];
  const [m, d, y] = (await endField.inputValue()).split('/');
  const from = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)) - 30 * 86_400_000).toISOString().slice(0, 10);
  const before = await canvas.getAttribute('data-y-ticks');
  await typeDate(startField, from);
  await page.waitForFunction((b) => document.querySelector('[data-y-ticks]').dataset.yTicks !== b, before);
  assert.match(await page.locator('.time-chart figcaption').innerText(), new RegExp(en['chart-by-day']));
  const linear = await ticks();
  assert.ok(linear.length >= 2, `ticks ${linear}`);
  assert.ok(
    linear.every((n) => Number.isInteger(n)),
    `registrations are counted in whole numbers: ${linear}`,
  );
  const month = (await canvas.getAttribute('data-x-ticks')).split('|');
  assert.ok(month.length >= 2 && new Set(month).size === month.length, `each date once: ${month}`);
  assert.ok(
    (await utcDays()).every((s) => s % 86_400 === 0),
    `ticks at UTC midnights: ${await utcDays()}`,
  );
  const toggle = page.getByTestId('chart-log');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  await page.waitForFunction(
    (before) => document.querySelector('[data-y-ticks]').dataset.yTicks !== before,
    linear.join(' '),
  );
  const log = await ticks();
  assert.ok(Math.min(...log) >= 1, `a logarithmic axis has no zero: ${log}`);
  assert.ok(Math.max(...log) / Math.min(...log) >= 10, `and spans a decade at least: ${log}`);
  await page.context().close();
});

test('on a 1920 px screen every commissioned column shows without opening the column menu', async () => {
  for (const [route, headers] of [
    [
      '/admin/tables/users',
      [en['users-registered'], en['users-usdt'], en['users-add-rewards'].replace('{{product}}', 'LVLX')],
    ],
    ['/admin/tables/NFTStaking', [en['users-usdt'], en['stake-start']]],
  ]) {
    const page = await adminPage(route, 1920);
    for (const name of headers)
      await page
        .getByRole('columnheader', { name })
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => assert.fail(`${route}: "${name}" is not shown at 1920 px`));
    await page.context().close();
  }
});
