// Languages (docs/product/screens.md#languages: en, es, pt; default and fallback en; remembered)
// and the rule that the UI shows no string that is not a translation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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
  signIn,
} from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await startServer();
  // The member has linked a wallet, so the wallet check (wallet.test.mjs) lets them through.
  server.giveWallet(DEMO_USER.email);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

test('switching language changes the login page and is remembered', async () => {
  const page = await openPage(browser, server.url, { cookies: consent });
  await page.goto('/login');
  await settled(page);
  assert.equal(await page.textContent('h1'), 'Sign in');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await page.click('[data-lng=es]');
  await page.waitForFunction(() => document.querySelector('h1').textContent === 'Iniciar sesión');
  assert.equal(await page.getAttribute('html', 'lang'), 'es');
  assert.equal(await page.textContent('label[for=field-password]'), 'Contraseña');
  await page.click('[data-lng=pt]');
  await page.waitForFunction(() => document.querySelector('h1').textContent === 'Entrar');
  await page.reload();
  await settled(page);
  assert.equal(await page.textContent('h1'), 'Entrar', 'the choice survives a reload');
  assert.equal(await page.getAttribute('[data-lng=pt]', 'aria-pressed'), 'true');
});

test('validation messages come in the chosen language', async () => {
  const page = await openPage(browser, server.url, { cookies: consent, storage: { language: 'es' } });
  await page.goto('/login');
  await settled(page);
  await page.fill('#field-email', 'x');
  await page.click('button[type=submit]');
  await page.locator('.field-error:not(:empty)').nth(1).waitFor();
  const errors = await page.locator('.field-error:not(:empty)').allTextContents();
  assert.deepEqual(errors, [
    'Ingresa un correo válido en minúsculas, como nombre@ejemplo.com.',
    'Este campo es obligatorio.',
  ]);
});

test('an unsupported browser language falls back to English', async () => {
  const context = await browser.newContext({ locale: 'de-DE', baseURL: server.url });
  const page = await context.newPage();
  await page.goto('/login');
  await settled(page);
  assert.equal(await page.textContent('h1'), 'Sign in');
  await context.close();
});

const pages = [
  ['login (with errors)', '/login', {}, async (p) => p.click('button[type=submit]')],
  [
    'registration step 1 (with errors)',
    '/register/referred/:referral',
    {},
    async (p) => p.click('button[type=submit]'),
  ],
  ['404', '/no/such/page', {}],
  ['user area', '/dashboard', DEMO_USER, (p) => p.waitForSelector('[data-testid="wallet-card"]')],
  ['my assets (no purchases)', '/myActives', DEMO_USER, (p) => p.waitForSelector('.table-empty')],
  ['token page (no chain configured)', '/tokenLVLX', DEMO_USER, (p) => p.waitForSelector('.notice.error')],
  ['admin users table', '/admin/tables/users', DEMO_ADMIN, (p) => p.waitForSelector('.rdt_TableRow')],
  ['admin ICO table (empty ledger)', '/admin/tables/ICO', DEMO_ADMIN, (p) => p.waitForSelector('.table-empty')],
  ['admin NFT staking (no stakes)', '/admin/tables/NFTStaking', DEMO_ADMIN, (p) => p.waitForSelector('.table-empty')],
  ['admin LVLX staking (no stakes)', '/admin/tables/LVLXStaking', DEMO_ADMIN, (p) => p.waitForSelector('.table-empty')],
  [
    'admin edit content (with errors)',
    '/admin/edit-content',
    DEMO_ADMIN,
    // A block nobody wrote (the demo writes the private protocol): saved empty, it has errors.
    async (p) => {
      await p.locator('.content-choice select').selectOption('dashboard-notice');
      await p.click('form.content-form button[type=submit]');
    },
  ],
  [
    "private protocol (the demo's sample text)",
    '/vanguardprivateprotocol',
    DEMO_USER,
    (p) => p.waitForSelector('.content-block h2'),
  ],
  ['admin secret key (with errors)', '/admin/secret-key', DEMO_ADMIN, async (p) => p.click('button[type=submit]')],
  [
    'owner changes (no chain: the error and its retry)',
    '/owner-changes',
    DEMO_USER,
    (p) => p.waitForSelector('.notice.error button'),
  ],
  ['landing', '/landing', {}],
  ['solvency (no chain)', '/solvency', {}, (p) => p.waitForSelector('[data-testid="solvency-books"]')],
  [
    'admin owner proposals (no chain: the error and its retry)',
    '/admin/owner-proposals',
    DEMO_ADMIN,
    (p) => p.waitForSelector('.notice.error button'),
  ],
  ['admin audit', '/admin/audit', DEMO_ADMIN, (p) => p.waitForSelector('[data-testid="audit-total"]')],
  ['admin books (never checked)', '/admin/books', DEMO_ADMIN, (p) => p.waitForSelector('[data-testid="books-never"]')],
];

for (const [name, route, account, act] of pages) {
  test(`no untranslated text: ${name}`, async () => {
    const storage = account.email ? await server.storageFor(account) : {};
    const page = await openPage(browser, server.url, { storage });
    const path = route.replace(':referral', server.userReferral);
    await page.goto(`${path}?lng=cimode`);
    await settled(page);
    assert.equal(new URL(page.url()).pathname, path);
    if (act) await act(page);
    await page.waitForTimeout(100);
    assert.deepEqual(await untranslated(page), []);
  });
}

test("the language in use at sign-in stays, and becomes the account's", async () => {
  // The demo member's account speaks Spanish before each sign-in.
  const database = join(server.dataDir, 'lvlx.sqlite3');
  const sql = (statement, ...args) =>
    execFileSync('python3', [
      '-c',
      'import sqlite3,sys; c=sqlite3.connect(sys.argv[1], timeout=10); r=c.execute(sys.argv[2], sys.argv[3:]).fetchone(); c.commit(); print(r[0] if r else "")',
      database,
      statement,
      ...args,
    ])
      .toString()
      .trim();
  const signInStored = async (storage) => {
    sql('UPDATE users SET language=? WHERE email=?', 'es', DEMO_USER.email);
    const page = await openPage(browser, server.url, { cookies: consent, storage });
    await signIn(page, server, DEMO_USER);
    await page.waitForURL('**/dashboard');
    await settled(page);
    return page;
  };
  for (const language of ['en', 'pt']) {
    const page = await signInStored({ language });
    assert.equal(await page.getAttribute('html', 'lang'), language);
    assert.equal(sql('SELECT language FROM users WHERE email=?', DEMO_USER.email), language);
    await page.context().close();
  }
  sql('UPDATE users SET language=? WHERE email=?', 'en', DEMO_USER.email);
});
