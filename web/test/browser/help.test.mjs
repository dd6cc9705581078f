// Help, identity and cards as a member and an admin use them, in headless Chromium
// against the real server on its own anvil chain: the FAQ by keyboard with the guide's
// screenshots in each language (no layout shift) and the USDT contract from configuration, its
// text pages; KYC moving from none to approved through a signed Persona webhook and back to
// rejected by an admin (unsigned and replayed calls changing nothing); the card on-ramp against
// a local server answering Stripe's documented shapes; amounts grouped in each language.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  consent,
  DEMO_ADMIN,
  DEMO_USER,
  launchBrowser,
  openPage,
  settled,
  startServer,
  untranslated,
  SHOTS,
  locale,
  memberPage,
  moveInside,
} from './harness.mjs';
import { injectWallet } from './wallet.mjs';
import { checksumAddress, formatTokenIn, localizeNumber } from '../../src/core/index.js';

const root = new URL('../../../', import.meta.url).pathname;
const t = (key, values = {}, lng = 'en') => locale(lng)[key].replace(/\{\{(\w+)\}\}/g, (_, k) => values[k] ?? 'LVLX');

const WEBHOOK_SECRET = 'wbhsec_browser_test_secret';

/** A loopback server answering as Stripe's crypto on-ramp API (and its hosted page). */
function fakeStripe() {
  const seen = [];
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/crypto/onramp_sessions') {
        const form = Object.fromEntries(new URLSearchParams(body));
        seen.push({ auth: req.headers.authorization, form });
        const { port } = http.address();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `cos_${seen.length}`,
            object: 'crypto.onramp_session',
            client_secret: `cos_${seen.length}_secret_x`,
            livemode: false,
            redirect_url: `http://127.0.0.1:${port}/hosted?session=cos_${seen.length}`,
            status: 'initialized',
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Onramp</title><h1>Hosted onramp</h1>');
    });
  });
  return new Promise((resolve) =>
    http.listen(0, '127.0.0.1', () => resolve({ http, seen, url: `http://127.0.0.1:${http.address().port}` })),
  );
}

let server;
let browser;
let stripe;
let accounts;
before(async () => {
  stripe = await fakeStripe();
  server = await startServer({
    chain: true,
    env: {
      LVLX_KYC: `{webhook_secret="${WEBHOOK_SECRET}", template_id="itmpl_browser"}`,
      LVLX_CARD: `{publishable_key="pk_test_browser", secret_key="sk_test_browser", api_url="${stripe.url}"}`,
      LVLX_FAQ_VIDEOS: '{faqs2="dQw4w9WgXcQ"}',
    },
  });
  browser = await launchBrowser();
  accounts = (await server.anvil.rpc('eth_accounts')).result.map(checksumAddress);
});
after(async () => {
  await browser?.close();
  server?.stop();
  stripe?.http.close();
});

test('the FAQ opens several answers by keyboard, shows the USDT contract and the guide in each language without layout shift', async () => {
  for (const lng of ['en', 'es', 'pt']) {
    const page = await memberPage(browser, server, '/dashboardfaqs', {
      language: lng,
      viewport: lng === 'es' ? { width: 390, height: 844 } : { width: 1280, height: 900 },
    });
    assert.equal(await page.locator('h1').innerText(), t('faq-title', {}, lng));
    assert.equal(await page.locator('details.faq-item').count(), 7);
    // Layout shifts from here on are counted (the screenshots' space is reserved), once the page
    // has settled: its fonts swapped in and nothing loading (a loaded CPU delays both, and a font
    // swap moves every line: it is not what this measures).
    await page.evaluate(() => document.fonts.ready);
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 10_000 });
    await page.waitForLoadState('networkidle').catch(() => {});
    await page.evaluate(() => {
      window.__shift = 0;
      window.__shifted = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          if (e.hadRecentInput) continue;
          window.__shift += e.value;
          window.__shifted.push(
            ...e.sources.map(
              (s) =>
                `${s.node?.nodeName}.${s.node?.className} ${JSON.stringify(s.previousRect)}→${JSON.stringify(s.currentRect)}`,
            ),
          );
        }
      }).observe({ type: 'layout-shift', buffered: false });
    });
    // Keyboard: the first question, then the seventh, both stay open.
    await page.locator('[data-testid="faqs1"] summary').focus();
    await page.keyboard.press('Enter');
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      if (
        await page.evaluate(
          () =>
            document.activeElement.closest('[data-testid="faqs7"]') !== null &&
            document.activeElement.tagName === 'SUMMARY',
        )
      )
        break;
    }
    assert.equal(
      await page.evaluate(() => document.activeElement.tagName),
      'SUMMARY',
      'Tab moves from question to question',
    );
    await page.locator('[data-testid="faqs7"] summary').focus();
    await page.keyboard.press('Space');
    assert.equal(await page.locator('[data-testid="faqs1"]').getAttribute('open'), '');
    assert.equal(await page.locator('[data-testid="faqs7"]').getAttribute('open'), '');
    // The guide: three screenshots of this product in this language, sized before they load.
    const shots = page.getByTestId('faq-shot');
    await shots.first().waitFor();
    assert.equal(await shots.count(), 3);
    for (let i = 0; i < 3; i++) {
      const img = shots.nth(i);
      assert.equal(await img.getAttribute('src'), `/guides/${lng}/buy-${i + 1}.jpg`);
      assert.ok(Number(await img.getAttribute('width')) > 300 && Number(await img.getAttribute('height')) > 100);
      assert.equal(await img.getAttribute('alt'), t(`faqs7-shot${i + 1}`, {}, lng));
      await img.scrollIntoViewIfNeeded();
      await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle());
      assert.equal(
        await img.evaluate((el) => el.naturalWidth),
        Number(await img.getAttribute('width')),
        'the server read the real dimensions',
      );
    }
    // An unreserved screenshot pushes the page by its own height (a shift score near 0.1 each);
    // the bound leaves room for sub-pixel settling only.
    const shift = await page.evaluate(() => window.__shift);
    assert.ok(
      shift < 0.005,
      `no layout shift while the screenshots load (${shift}): ${await page.evaluate(() => window.__shifted.join('; '))}`,
    );
    // The USDT contract from configuration, with copy and an explorer link.
    const usdt = page.getByTestId('faq-usdt');
    await usdt.getByText(server.settings.chain.usdt).waitFor();
    assert.equal(
      await usdt.getByRole('link').getAttribute('href'),
      `https://polygonscan.com/token/${server.settings.chain.usdt}`,
    );
    // No video key configured: the video is a plain link.
    await page.locator('[data-testid="faqs2"] summary').click();
    assert.equal(
      await page.locator('[data-testid="faqs2"] [data-testid="faq-video-link"] a').getAttribute('href'),
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    );
    await page.screenshot({ path: join(SHOTS, `faq-${lng}${lng === 'es' ? '-390' : ''}.png`), fullPage: true });
    await page.context().close();
  }
});

test('the FAQ text pages: wallet setup, the explorer lookup from configuration, card providers, short answers; printable', async () => {
  const page = await memberPage(browser, server, '/dashboardfaqs', { language: 'pt' });
  // One load: the other topics are reached inside the app, as from the FAQ's links.
  await page.getByRole('link', { name: t('faq-topic-wallet', {}, 'pt') }).click();
  await page.locator('h1', { hasText: t('faq-topic-wallet', {}, 'pt') }).waitFor();
  assert.equal(await page.locator('.faq-topic ol li').count(), 11);
  await moveInside(page, '/dashboardfaqs/explorer');
  await page.getByTestId('faq-explorer-link').waitFor();
  assert.equal(
    await page.getByTestId('faq-explorer-link').getByRole('link').first().getAttribute('href'),
    'https://polygonscan.com',
  );
  await moveInside(page, '/dashboardfaqs/card');
  await page.locator('.faq-topic h2').first().waitFor();
  assert.equal(
    await page
      .locator('.faq-topic h2')
      .allInnerTexts()
      .then((h) => h.join('|')),
    `${t('faq-card-moonpay', {}, 'pt')}|${t('faq-card-transak', {}, 'pt')}`,
  );
  await moveInside(page, '/dashboardfaqs/answers');
  await page.locator('.faq-topic h2').first().waitFor();
  assert.equal(await page.locator('.faq-topic h2').count(), 3);
  // Printing hides the menu and the buttons.
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.locator('.side-menu').isVisible(), false);
  assert.equal(await page.getByRole('button', { name: t('faq-print', {}, 'pt') }).isVisible(), false);
  await moveInside(page, '/dashboardfaqs/nothing');
  await page.locator('h1').waitFor();
  assert.notEqual(await page.locator('h1').innerText(), t('faq-topic-wallet', {}, 'pt'));
  await page.context().close();
});

/** Persona's webhook: the event body signed as Persona signs it. */
async function webhook(body, { secret = WEBHOOK_SECRET, at = Math.floor(Date.now() / 1000), signed = true } = {}) {
  const text = JSON.stringify(body);
  const v1 = createHmac('sha256', secret).update(`${at}.${text}`).digest('hex');
  const res = await fetch(`${server.url}/api/v1/kyc/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signed ? { 'persona-signature': `t=${at},v1=${v1}` } : {}) },
    body: text,
  });
  return { status: res.status, body: await res.json() };
}
const inquiry = (id, name, reference, createdAt = new Date().toISOString()) => ({
  data: {
    type: 'event',
    id,
    attributes: {
      name,
      'created-at': createdAt,
      payload: {
        data: {
          type: 'inquiry',
          id: 'inq_browser',
          attributes: { status: name.split('.')[1], 'reference-id': reference },
        },
      },
    },
  },
});

test('KYC: none, approved by a signed webhook (live on the dashboard), rejected by an admin with a reason; unsigned and replayed calls change nothing', async () => {
  const page = await memberPage(browser, server, '/dashboard', { language: 'en' });
  const card = page.getByTestId('kyc-card');
  await card.getByText(t('kyc-status-none'), { exact: true }).waitFor();
  const start = await card.getByTestId('kyc-start').getAttribute('href');
  assert.match(
    start,
    /^https:\/\/withpersona\.com\/verify\?inquiry-template-id=itmpl_browser&reference-id=[0-9a-f]{32}$/,
  );
  const reference = start.split('reference-id=')[1];

  // Unsigned, wrongly signed and stale calls: refused, nothing moves.
  const approved = inquiry('evt_browser_1', 'inquiry.approved', reference);
  assert.equal((await webhook(approved, { signed: false })).status, 401);
  assert.equal((await webhook(approved, { secret: 'wbhsec_other' })).status, 401);
  assert.equal((await webhook(approved, { at: Math.floor(Date.now() / 1000) - 3600 })).status, 401);
  await page.waitForTimeout(500);
  assert.equal(await card.getByTestId('kyc-status').innerText(), t('kyc-status-none'));

  // Signed: the member's dashboard moves to verified by itself.
  assert.deepEqual(await webhook(approved), { status: 200, body: { received: 'accepted' } });
  await card.getByText(t('kyc-status-approved'), { exact: true }).waitFor({ timeout: 10_000 });
  assert.equal(await card.getByTestId('kyc-start').count(), 0);
  // A replay is a duplicate; a declined event older than the approval does not step back.
  assert.deepEqual((await webhook(approved)).body, { received: 'duplicate' });
  const older = inquiry('evt_browser_0', 'inquiry.declined', reference, new Date(Date.now() - 60_000).toISOString());
  assert.equal((await webhook(older)).status, 200);
  await page.reload();
  await card.getByText(t('kyc-status-approved'), { exact: true }).waitFor();

  // The admin: the KYC filter, the dialog, a reason, the audit.
  const admin = await openPage(browser, server.url, {
    storage: await server.storageFor(DEMO_ADMIN),
    cookies: consent,
    viewport: { width: 1440, height: 1000 },
  });
  await admin.goto('/admin/tables/users');
  await settled(admin);
  await admin.locator('.rdt_TableRow').first().waitFor();
  await admin.getByTestId('kyc-filter').selectOption('approved');
  await admin.locator('.rdt_TableRow').first().getByText('demo@lvlx.local').waitFor();
  assert.equal(await admin.locator('.rdt_TableRow').count(), 1);
  await admin.getByRole('button', { name: /Change the KYC status of/ }).click();
  const dialog = admin.locator('dialog[open]');
  await dialog.getByText(t('kyc-by-provider')).waitFor();
  await dialog.getByLabel(t('kyc-status')).selectOption('rejected');
  assert.ok(await dialog.getByRole('button', { name: t('kyc-save') }).isDisabled(), 'a reason is required');
  await dialog.getByLabel(t('kyc-reason')).fill('Document does not match the account name');
  await admin.screenshot({ path: join(SHOTS, 'admin-kyc-dialog.png') });
  await dialog.getByRole('button', { name: t('kyc-save') }).click();
  await admin.locator('.Toastify__toast--success', { hasText: t('kyc-saved') }).waitFor();
  await admin.getByTestId('kyc-filter').selectOption('rejected');
  await admin.locator('.rdt_TableRow').first().getByText('demo@lvlx.local').waitFor();
  // The member sees it without a reload, with what to do next.
  await card.getByText(t('kyc-status-rejected'), { exact: true }).waitFor({ timeout: 10_000 });
  await card.getByText(t('kyc-next-rejected')).waitFor();
  assert.equal(await card.getByTestId('kyc-start').innerText(), t('kyc-restart'));
  const audit = server.sql(
    "SELECT json_extract(after, '$.status'), json_extract(after, '$.reason') FROM admin_audit WHERE subject = 'kyc'",
  );
  assert.deepEqual(audit, [['rejected', 'Document does not match the account name']]);
  await page.screenshot({ path: join(SHOTS, 'dashboard-kyc-rejected.png'), fullPage: true });
  await admin.context().close();
  await page.context().close();
});

test('the card on-ramp opens the provider for the linked wallet and keeps stripeData; without a provider the token page points to the FAQ', async () => {
  server.giveWallet(DEMO_USER.email, accounts[2]);
  const storage = await server.storageFor(DEMO_USER, { fresh: true });
  const page = await openPage(browser, server.url, {
    storage,
    cookies: consent,
    viewport: { width: 390, height: 844 },
  });
  const wallet = await injectWallet(page, server.anvil, { account: accounts[2] });
  Object.assign(wallet.state, { connected: true, chainId: '0x89' });
  wallet.state.known.add('0x89');
  await page.goto('/tokenLVLX?lng=es');
  await settled(page);
  const box = page.getByTestId('onramp');
  await box.waitFor();
  const popup = page.waitForEvent('popup');
  await box.getByRole('button', { name: t('onramp-open', { currency: 'USDC' }, 'es') }).click();
  const hosted = await popup;
  await hosted.waitForLoadState();
  assert.match(hosted.url(), new RegExp(`^${stripe.url}/hosted\\?session=cos_\\d+$`));
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('stripeData')));
  assert.match(stored.id, /^cos_\d+$/);
  assert.equal(stored.redirectUrl, hosted.url());
  const sent = stripe.seen.at(-1);
  assert.equal(sent.auth, `Basic ${Buffer.from('sk_test_browser:').toString('base64')}`);
  assert.equal(sent.form['wallet_addresses[polygon]'].toLowerCase(), accounts[2].toLowerCase());
  assert.equal(sent.form.destination_network, 'polygon');
  // The secret key is nowhere in what the browser got.
  const bundle = await page.evaluate(() => document.documentElement.outerHTML + JSON.stringify(localStorage));
  assert.ok(!bundle.includes('sk_test_browser'));
  await box.getByText(t('onramp-opened', {}, 'es')).waitFor();
  await page.screenshot({ path: join(SHOTS, 'token-onramp-es-390.png'), fullPage: true });
  await page.context().close();

  const plain = await startServer();
  try {
    plain.giveWallet(DEMO_USER.email);
    const p = await openPage(browser, plain.url, { storage: await plain.storageFor(DEMO_USER), cookies: consent });
    await p.goto('/tokenLVLX');
    await settled(p);
    // No chain here either: the page says so, and the card step is the FAQ's providers.
    await p
      .getByTestId('onramp-faq')
      .getByRole('link', { name: t('onramp-faq-link') })
      .click();
    await p.waitForURL('**/dashboardfaqs/card');
    await p.context().close();
  } finally {
    plain.stop();
  }
});

test('amounts read in the page language: grouped, right-aligned, with their unit', async () => {
  // A purchase gives the member a balance worth grouping.
  const general = await server.call(DEMO_ADMIN, 'statistics-users');
  for (const lng of ['en', 'es', 'pt']) {
    const page = await memberPage(browser, server, '/dashboard', { language: lng });
    const bought = await page.getByTestId('account-bought').innerText();
    const figures = await server.call(DEMO_USER, 'dashboard');
    assert.equal(bought, `${formatTokenIn(figures.account.bought, 'LVLX', lng)} LVLX`);
    assert.equal(figures.account.bought, figures.balance);
    await page.context().close();
  }
  // The admin users table: the core's grouping, equal to the browser's own Intl for the language.
  for (const lng of ['en', 'es', 'pt']) {
    const admin = await openPage(browser, server.url, {
      storage: { ...(await server.storageFor(DEMO_ADMIN)), language: lng },
      cookies: consent,
      viewport: { width: 1440, height: 1000 },
    });
    await admin.goto('/admin/tables/users');
    await settled(admin);
    const box = admin.getByTestId('users-general');
    await box.waitFor();
    const total = await box.locator('[data-key="users-total-product-usdt"] dd:not(.summary-help)').innerText();
    const plain = general.General.totalUsersUSDT;
    const intl = new Intl.NumberFormat(lng, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(plain);
    assert.equal(total, `${intl} USDT`, lng);
    assert.equal(total, `${localizeNumber(plain, lng)} USDT`);
    // Amount cells: right-aligned, tabular figures.
    const cell = admin.locator('.rdt_TableRow').first().locator('.amount').first();
    assert.equal(await cell.evaluate((el) => getComputedStyle(el).fontVariantNumeric), 'tabular-nums');
    const justify = await cell.evaluate((el) => getComputedStyle(el.closest('.rdt_TableCell')).justifyContent);
    assert.equal(justify, 'flex-end');
    if (lng === 'es') {
      await admin.setViewportSize({ width: 390, height: 844 });
      // Once the side menu has slid away (it was photographed half-way out).
      await admin.evaluate(async () => {
        await new Promise((frame) => requestAnimationFrame(frame));
        await Promise.all(document.getAnimations().map((a) => a instanceof CSSTransition && a.finished));
      });
      await admin.screenshot({ path: join(SHOTS, 'admin-users-es-390.png'), fullPage: true });
    } else if (lng === 'en') {
      await admin.screenshot({ path: join(SHOTS, 'admin-users-en-1440.png'), fullPage: true });
    }
    await admin.context().close();
  }
});

const scans = [
  [
    'FAQ with every answer open',
    '/dashboardfaqs',
    DEMO_USER,
    async (p) => {
      for (const d of await p.locator('details.faq-item summary').all()) await d.click();
      await p.getByTestId('faq-shot').first().waitFor();
    },
  ],
  ['FAQ wallet guide', '/dashboardfaqs/wallet', DEMO_USER],
  ['FAQ explorer guide', '/dashboardfaqs/explorer', DEMO_USER],
  ['FAQ card guide', '/dashboardfaqs/card', DEMO_USER],
  ['FAQ short answers', '/dashboardfaqs/answers', DEMO_USER],
  ['dashboard boxes', '/dashboard', DEMO_USER, (p) => p.getByTestId('kyc-status').waitFor()],
  ['token page with the on-ramp', '/tokenLVLX', DEMO_USER, (p) => p.getByTestId('onramp').waitFor()],
  [
    'admin KYC dialog',
    '/admin/tables/users',
    DEMO_ADMIN,
    async (p) => {
      await p.locator('.rdt_TableRow').first().waitFor();
      await p.locator('.kyc-cell button').first().click();
      await p.locator('dialog[open] .audit-list, dialog[open] p.muted').first().waitFor();
    },
  ],
];
for (const [name, route, account, act] of scans) {
  test(`no untranslated text: ${name}`, async () => {
    const page = await openPage(browser, server.url, { storage: await server.storageFor(account), cookies: consent });
    await page.goto(`${route}?lng=cimode`);
    await settled(page);
    if (act) await act(page);
    await page.waitForTimeout(100);
    assert.deepEqual(await untranslated(page), []);
    await page.context().close();
  });
}

/** A loopback port nothing listens on now. */
const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

test('a claim held for identity shows two figures; the member verifies at the demo provider (pt, phone) and the rest becomes claimable', async () => {
  // The run command's demo: the server's [kyc] is written by `lvlx demo identity`, which serves
  // the demo's stand-in for Persona and posts its signed webhook to this server.
  const dataDir = mkdtempSync(join(tmpdir(), 'lvlx-identity-'));
  const [serverPort, providerPort] = [await freePort(), await freePort()];
  const binary = join(root, process.env.TEST_SERVER_BINARY ?? 'target/debug/lvlx');
  const provider = spawn(
    binary,
    ['demo', 'identity', '--listen', `127.0.0.1:${providerPort}`, '--site', `http://127.0.0.1:${serverPort}`],
    {
      cwd: root,
      env: { ...process.env, LVLX_CONFIG: join(dataDir, 'lvlx.toml') },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let demo;
  try {
    await new Promise((resolve, reject) => {
      let out = '';
      provider.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('/verify')) resolve();
      });
      provider.on('exit', (code) => reject(new Error(`the demo provider exited with ${code}`)));
    });
    demo = await startServer({ dataDir, env: { LVLX_BIND: `127.0.0.1:${serverPort}` } });
    demo.giveWallet(DEMO_USER.email);
    // The walk: 99,200 LVLX earned, 10,000 claimed and paid without a verified identity.
    const LVLX = 10n ** 18n;
    execFileSync('python3', [
      '-c',
      'import sqlite3,sys; c=sqlite3.connect(sys.argv[1], timeout=10); c.execute("UPDATE users SET add_rewards=? WHERE email=?", (sys.argv[2], sys.argv[4])); c.execute("INSERT INTO claim_payments (tx_hash, log_index, wallet, amount, cumulative, created_at) SELECT \'0x01\', 0, wallet, ?, ?, 0 FROM users WHERE email=?", (sys.argv[3], sys.argv[3], sys.argv[4])); c.commit()',
      join(dataDir, 'lvlx.sqlite3'),
      (99_200n * LVLX).toString(),
      (10_000n * LVLX).toString(),
      DEMO_USER.email,
    ]);
    const pt = locale('pt');
    const storage = await demo.storageFor(DEMO_USER);
    const page = await openPage(browser, demo.url, {
      storage: { ...storage, language: 'pt' },
      cookies: consent,
      viewport: { width: 390, height: 844 },
      phone: true,
      locale: 'pt-BR',
    });
    await page.goto('/dashboard');
    await settled(page);
    // Two figures, each with its next step: nothing to claim now (no Claim link), 89,200 held
    // with the way to verify.
    const money = page.getByTestId('money-account');
    await money.getByTestId('account-claimable-held').waitFor();
    assert.equal(await money.getByTestId('account-claimable').innerText(), '0,00 LVLX');
    assert.equal(await money.getByTestId('account-claimable-now').getByRole('link').count(), 0);
    const held = money.getByTestId('account-claimable-held');
    assert.match(await held.innerText(), /^89\.200,00 LVLX/);
    await money.getByText(pt['claims-held-identity']).waitFor();
    const glance = page.getByTestId('network-glance');
    assert.match(await glance.getByTestId('glance-claimable-held').innerText(), /^89\.200,00 LVLX/);
    await page.screenshot({ path: join(SHOTS, 'dashboard-claim-held-pt-390.png'), fullPage: true });

    // Verify: the held figure's link leads to the verification card, which opens the demo's
    // provider (said to be the demo's); approving there returns the member to the dashboard.
    await held.getByRole('link', { name: pt['claims-kyc-verify'] }).click();
    const card = page.getByTestId('kyc-card');
    await card.getByTestId('kyc-start').waitFor();
    assert.ok(
      (await card.getByTestId('kyc-start').getAttribute('href')).startsWith(
        `http://127.0.0.1:${providerPort}/verify?inquiry-template-id=itmpl_lvlx_demo&reference-id=`,
      ),
    );
    const [flow] = await Promise.all([page.context().waitForEvent('page'), card.getByTestId('kyc-start').click()]);
    await flow.getByRole('heading', { name: pt['demo-kyc-title'] }).waitFor();
    assert.equal(await flow.getByTestId('demo-kyc-warning').innerText(), pt['demo-kyc-warning']);
    await flow.screenshot({ path: join(SHOTS, 'demo-identity-provider-pt-390.png'), fullPage: true });
    await flow.getByRole('button', { name: pt['demo-kyc-approve'] }).click();
    await flow.waitForURL(`${demo.url}/dashboard#kyc`);
    await flow.close();

    // The first tab moves by itself: verified, nothing held, the whole 89,200 claimable now.
    await card.getByText(pt['kyc-status-approved'], { exact: true }).waitFor({ timeout: 10_000 });
    await money.getByTestId('account-claimable').getByText('89.200,00 LVLX').waitFor({ timeout: 10_000 });
    assert.equal(await money.getByTestId('account-claimable-held').count(), 0);
    await money.getByTestId('account-claimable-now').getByRole('link', { name: pt['account-claim'] }).waitFor();
    await money.getByText(pt['account-claimable']).waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    demo?.stop();
    provider.kill('SIGTERM');
  }
});
