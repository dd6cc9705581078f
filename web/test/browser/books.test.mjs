// The books and the solvency page as people use them, in headless Chromium against a server on
// its own anvil chain: anyone, without an account, reads the reserves and the claims contract's
// LVLX exactly as the chain holds them (es and pt on a phone, en on a desktop, no sideways
// scroll); an admin checks the books now, sees the verdict when the background check ends, and
// the public page then shows that check.
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
  pt,
} from './harness.mjs';
import { calldata, formatLvlx } from '../../src/core/index.js';

let server;
let browser;
before(async () => {
  server = await startServer({ chain: true });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

/** The LVLX the claim distributor holds, read from the chain. */
async function distributorHeld() {
  const { lvlx, claimDistributor: distributor } = server.settings.chain;
  const answer = await server.anvil.rpc('eth_call', [
    { to: lvlx, data: calldata('LVLX', 'balanceOf', [distributor]) },
    'latest',
  ]);
  return BigInt(answer.result).toString();
}

async function solvency(language, width) {
  const page = await openPage(browser, server.url, {
    storage: { language },
    cookies: consent,
    viewport: { width, height: 900 },
  });
  await page.goto('/solvency');
  await settled(page);
  await page.getByTestId('solvency-claims').waitFor();
  return page;
}

test('anyone reads the reserves and the claims contract as the chain holds them, on a phone in es and pt', async () => {
  const held = await distributorHeld();
  for (const [language, dict, width] of [
    ['es', es, 390],
    ['pt', pt, 390],
    ['en', en, 1440],
  ]) {
    const page = await solvency(language, width);
    assert.equal(await page.locator('h1').innerText(), dict['solvency-title']);
    const claims = await page.getByTestId('solvency-claims').innerText();
    assert.ok(claims.includes(`${formatLvlx(held, language)} LVLX`), claims);
    assert.ok(claims.includes(dict['solvency-owed']), claims);
    for (const pool of ['nft', 'lvlx']) {
      const box = await page.getByTestId(`solvency-${pool}`).innerText();
      assert.ok(box.includes(dict['reserve-free']), box);
    }
    assert.equal(await page.getByTestId('solvency-books').innerText(), dict['solvency-books-never']);
    await page.screenshot({ path: join(SHOTS, `solvency-${language}-${width}.png`), fullPage: true });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `no sideways scroll (${wide}px)`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the solvency page leads back: a visitor to sign-in, a signed-in member to the dashboard, in es', async () => {
  const visitor = await solvency('es', 390);
  const back = visitor.getByTestId('public-back');
  assert.equal(await back.innerText(), es['login-title']);
  await back.click();
  await visitor.waitForURL('**/login');
  await visitor.context().close();

  const storage = { ...(await server.storageFor(DEMO_USER)), language: 'es' };
  const member = await openPage(browser, server.url, {
    storage,
    cookies: consent,
    viewport: { width: 390, height: 844 },
  });
  await member.goto('/solvency');
  await member.getByTestId('solvency-claims').waitFor();
  const home = member.getByTestId('public-back');
  assert.equal(await home.innerText(), es['public-back-signed-in']);
  await home.click();
  await member.waitForURL('**/dashboard');
  await member.context().close();
});

test('an admin checks the books now and sees the verdict; the public page then shows that check', async () => {
  for (const [language, dict, width] of [
    ['es', es, 390],
    ['en', en, 1440],
  ]) {
    const storage = await server.storageFor(DEMO_ADMIN);
    storage.language = language;
    const admin = await openPage(browser, server.url, { storage, cookies: consent, viewport: { width, height: 1000 } });
    await admin.goto('/admin/books');
    await settled(admin);
    const check = admin.getByTestId('books-check');
    await check.waitFor();
    // By keyboard: focus the button and press Enter; the check runs in the background and the
    // page shows it once recorded.
    const checks = () => server.sql('SELECT COUNT(*) FROM books_checks')[0][0];
    const before = checks();
    await check.focus();
    await admin.keyboard.press('Enter');
    for (let i = 0; checks() === before; i++) {
      assert.ok(i < 600, 'the check is recorded within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await admin.waitForFunction(
      (label) => document.querySelector('[data-testid="books-check"]')?.innerText === label,
      dict['books-check-now'],
      { timeout: 15_000 },
    );
    const verdict = admin.getByTestId('books-verdict');
    await verdict.waitFor();
    assert.ok(
      (await verdict.innerText()).startsWith(dict['books-agree'].split('{{')[0].trim()),
      await verdict.innerText(),
    );
    await admin.screenshot({ path: join(SHOTS, `books-${language}-${width}.png`), fullPage: true });
    const wide = await admin.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `no sideways scroll (${wide}px)`);
    assert.deepEqual(admin.errors, []);
    await admin.context().close();
  }
  // The public page reads again after 10 s at most.
  await new Promise((resolve) => setTimeout(resolve, 10_500));
  const page = await solvency('pt', 390);
  const books = await page.getByTestId('solvency-books').innerText();
  assert.ok(books.startsWith(pt['solvency-books-agree'].split('{{')[0].trim()), books);
  await page.screenshot({ path: join(SHOTS, 'solvency-checked-pt-390.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an admin reads the audit on a phone and a desktop, filters it and downloads it as CSV', async () => {
  for (const [language, dict, width] of [
    ['es', es, 390],
    ['pt', pt, 390],
    ['en', en, 1440],
  ]) {
    const storage = await server.storageFor(DEMO_ADMIN);
    storage.language = language;
    const page = await openPage(browser, server.url, { storage, cookies: consent, viewport: { width, height: 1000 } });
    await page.goto('/admin/audit');
    await settled(page);
    const rows = page.getByTestId('audit-row');
    await rows.first().waitFor();
    const all = await rows.count();
    assert.ok(all >= 1, "the demo admin's creation at least");
    // Opened by keyboard: the first change's before and after.
    await rows.first().locator('summary').focus();
    await page.keyboard.press('Enter');
    await rows.first().locator('pre').first().waitFor();
    await page.screenshot({ path: join(SHOTS, `audit-${language}-${width}.png`), fullPage: true });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `no sideways scroll (${wide}px)`);
    // The CSV of what is shown: a header and one line a change.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: dict['audit-export'] }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\r\n');
    assert.equal(csv[0], 'id,at,admin,subject,item,before,after');
    assert.equal(csv.length, all + 1);
    // A filter nobody matches applies as it is typed (no button, as every admin table): said,
    // not an empty page.
    assert.equal(await page.getByRole('button', { name: /apply|aplicar/i }).count(), 0);
    await page.getByLabel(dict['audit-admin']).fill('nobody@nowhere');
    await page.getByText(dict['audit-none']).waitFor({ timeout: 5_000 });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
