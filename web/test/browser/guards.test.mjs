// The route guards (docs/product/screens.md#route-guards), public redirects, the referral-code
// check, 404 and the router error page, in headless Chromium against the real server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  consent,
  DEMO_ADMIN,
  DEMO_USER,
  en,
  launchBrowser,
  openPage,
  path,
  settled,
  startServer,
  token,
} from './harness.mjs';
import { userRoutes } from '../../src/routes.js';

let server;
let browser;
// Real sessions (the server ends made-up ones at the first tokenVerify).
let admin;
let user;
before(async () => {
  server = await startServer();
  // The member has linked a wallet, so the wallet check (wallet.test.mjs) lets them through.
  server.giveWallet(DEMO_USER.email);
  browser = await launchBrowser();
  admin = await server.storageFor(DEMO_ADMIN);
  user = await server.storageFor(DEMO_USER);
});
after(async () => {
  await browser?.close();
  server?.stop();
});

const visit = async (route, storage = {}) => {
  const page = await openPage(browser, server.url, { storage, cookies: consent });
  await page.goto(route);
  await settled(page);
  return page;
};

const expired = token({ expSeconds: Math.floor(Date.now() / 1000) - 60 });

describe('admin area', () => {
  test('no token → /login', async () => {
    assert.equal(path(await visit('/admin/tables/ICO')), '/login');
  });
  test('expired token → storage cleared, /login', async () => {
    const page = await visit('/admin/tables/ICO', {
      ...admin,
      sessionToken: expired,
      userInfo: '{"names":"x"}',
      language: 'es',
    });
    assert.equal(path(page), '/login');
    const left = await page.evaluate(() => ({ ...localStorage }));
    assert.equal(left.sessionToken, undefined);
    assert.equal(left.userInfo, undefined);
    assert.equal(left.adminInfo, undefined);
    assert.equal(left.language, 'es', 'the language is a preference, not part of the session');
  });
  test('an admin sees the admin page, menu in order (then the owner changes) with names and exit', async () => {
    const page = await visit('/admin/tables/ICO', admin);
    assert.equal(path(page), '/admin/tables/ICO');
    assert.equal(await page.textContent('h1'), 'ICO Tokens');
    const items = await page.locator('#side-menu li a').allTextContents();
    assert.deepEqual(items, [
      'Users',
      'ICO Tokens',
      'NFT Staking',
      'LVLX Staking',
      'Activation Node',
      'Ranks',
      'Edit Content',
      'Secret Key',
      'Owner changes',
      'Owner proposals',
      'Audit',
      'Books check',
    ]);
    assert.match(await page.textContent('[data-testid=admin-names]'), /Ada Admin/);
    assert.ok(await page.getByRole('button', { name: 'Exit' }).isVisible());
  });
  test('a non-admin → /dashboard', async () => {
    assert.equal(path(await visit('/admin/tables/users', user)), '/dashboard');
  });
  test('an admin token without the stored admin role is not an admin', async () => {
    assert.equal(path(await visit('/admin/tables/users', { sessionToken: admin.sessionToken })), '/dashboard');
  });
});

describe('user area', () => {
  test('no token → /login', async () => {
    assert.equal(path(await visit('/staking')), '/login');
  });
  test('expired token → storage cleared, /login', async () => {
    const page = await visit('/staking', { sessionToken: expired, userInfo: '{}' });
    assert.equal(path(page), '/login');
    assert.equal(await page.evaluate(() => localStorage.getItem('userInfo')), null);
  });
  test('an admin → /admin/tables/users', async () => {
    assert.equal(path(await visit('/dashboard', admin)), '/admin/tables/users');
  });
  test('a user sees every user route', async () => {
    const page = await visit('/dashboard', user);
    const links = await page.locator('#side-menu li a').evaluateAll((as) => as.map((a) => new URL(a.href).pathname));
    assert.deepEqual(
      links,
      userRoutes('LVLX').map(([route]) => `/${route}`),
    );
    for (const link of links) {
      await page.goto(link);
      await settled(page);
      assert.equal(path(page), link);
    }
    assert.deepEqual(page.errors, []);
  });
});

describe('public, verify-code and reset pages', () => {
  test('login shows with nothing stored', async () => {
    const page = await visit('/login');
    assert.equal(await page.textContent('h1'), 'Sign in');
  });
  test('a stored verifyCode marker → /verifycode', async () => {
    const page = await visit('/login', { ...user, verifyCode: 'true' });
    assert.equal(path(page), '/verifycode');
    assert.equal(await page.textContent('h1'), 'Enter your code');
  });
  test('logged in → /dashboard', async () => {
    assert.equal(path(await visit('/login', user)), '/dashboard');
  });
  test('verify-code page without a session → /login', async () => {
    assert.equal(path(await visit('/verifycode')), '/login');
  });
  test('verify-code page with a session but no marker → /login → /dashboard', async () => {
    assert.equal(path(await visit('/verifycode', user)), '/dashboard');
  });
  test('a stale marker without a session is cleared instead of looping', async () => {
    const page = await visit('/login', { verifyCode: 'true' });
    assert.equal(path(page), '/login');
    assert.equal(await page.evaluate(() => localStorage.getItem('verifyCode')), null);
  });
  test('reset needs both the user token and the reset token', async () => {
    assert.equal(path(await visit('/reset', { userToken: 'u' })), '/login');
    assert.equal(path(await visit('/reset', { resetToken: 'r' })), '/login');
    const page = await visit('/reset', { userToken: 'u', resetToken: 'r' });
    assert.equal(path(page), '/reset');
    assert.equal(await page.textContent('h1'), 'Choose a new password');
  });
});

describe('redirects, referral links, 404 and errors', () => {
  for (const route of ['/', '/home', '/faqs', '/register']) {
    test(`${route} → the landing site`, async () => {
      const page = await visit(route);
      await page.waitForURL('**/landing');
      assert.match(await page.textContent('h1'), /Buy, stake and earn with LVLX/);
    });
  }
  for (const code of ['0123456789abcde', '0123456789abcdef0123456789abcdef0', 'zzzzzzzzzzzzzzzz']) {
    test(`referral code ${code} is refused → landing`, async () => {
      const page = await visit(`/register/referred/${code}`);
      await page.waitForURL('**/landing');
    });
  }
  test('the landing page does not download the core; sign-in does, and its small one', async () => {
    const page = await openPage(browser, server.url, { cookies: consent });
    const cores = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((e) => new URL(e.name).pathname.endsWith('.wasm'))
          .map((e) => e.decodedBodySize)
          .sort((a, b) => a - b),
      );
    await page.goto('/landing');
    await settled(page);
    await page.waitForLoadState('networkidle');
    assert.deepEqual(await cores(), []);
    await page.goto('/login');
    await settled(page);
    // The app's core, and the small one the rendered form is sent with before the app arrives.
    const [forms, core] = await cores();
    assert.ok(forms < 100_000 && core > 500_000, `${forms} and ${core} bytes`);
  });
  test('the landing page says what, how, the first answers and its three notices', async () => {
    const page = await openPage(browser, server.url, { cookies: consent, viewport: { width: 390, height: 844 } });
    await page.goto('/landing');
    await settled(page);
    await page.getByRole('heading', { name: en['landing-how'] }).waitFor();
    assert.equal(await page.locator('.landing-steps li').count(), 3);
    assert.equal(await page.locator('.faq-item').count(), 6);
    // Nothing written by the admins yet: each notice shows the translations' text.
    for (const block of ['terms', 'privacy', 'risk']) {
      const notice = page.getByTestId(`notice-${block}`);
      await notice.locator('summary').click();
      assert.equal(await notice.locator('summary').innerText(), en[`legal-${block}-title`]);
      assert.ok((await notice.innerText()).length > 200, `${block} has its text`);
    }
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390);
    assert.deepEqual(page.errors, []);
  });
  test('sign-in and the landing page arrive rendered in the visitor’s language; the app keeps what was typed', async () => {
    const context = await browser.newContext({ baseURL: server.url, locale: 'es-MX' });
    await context.addCookies(consent.map((c) => ({ url: server.url, ...c })));
    const page = await context.newPage();
    const warnings = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    // The app's code, and the small core that lets the rendered form be sent before it
    // (accounts.test.mjs), are held back until the fields have been typed into.
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await page.route(/\/(main|forms-core)\.[0-9a-f]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login', { waitUntil: 'commit' });
    await page.locator('[data-prerendered=login] h1').waitFor();
    assert.equal(await page.textContent('h1'), 'Iniciar sesión');
    assert.equal(await page.getAttribute('html', 'lang'), 'es');
    assert.match(await page.textContent('.brand'), /LVLX/);
    // Nothing can be sent yet: no Enter, no click.
    assert.equal(await page.isDisabled('button[type=submit]'), true);
    await page.locator('#field-email').pressSequentially('demo@lvlx.local');
    await page.locator('#field-password').pressSequentially('Demo#20');
    await page.keyboard.press('Enter');
    assert.equal(path(page), '/login');
    // The app hydrates the page: the same elements, not a second paint of new ones.
    await page.evaluate(() => {
      document.querySelector('h1').dataset.seen = 'before';
    });
    release();
    await page.locator('#root:not([data-prerendered]) button[type=submit]:enabled').waitFor();
    assert.equal(await page.getAttribute('h1', 'data-seen'), 'before');
    assert.deepEqual(
      warnings.filter((w) => w.includes('rendered again')),
      [],
      'hydrated, not rendered again',
    );
    assert.equal(await page.inputValue('#field-email'), 'demo@lvlx.local');
    assert.equal(await page.inputValue('#field-password'), 'Demo#20');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'field-password');
    await page.keyboard.type('26x');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/verifycode');
    // ?lng= wins over the browser's language, as in the app.
    await page.unroute(/\/(main|forms-core)\.[0-9a-f]+\.js$/);
    const landing = await fetch(`${server.url}/landing?lng=pt`, { headers: { 'accept-language': 'es' } });
    assert.equal(landing.headers.get('vary'), 'Accept-Encoding, Accept-Language, Cookie');
    const html = await landing.text();
    assert.match(html, /<html lang="?pt/);
    assert.match(html, /data-prerendered="?landing/);
    assert.doesNotMatch(html, /__LVLX_PRODUCT__/);
    assert.deepEqual(page.errors ?? [], []);
    await context.close();
  });
  test('a language chosen with the switcher comes back rendered in it, the browser’s aside', async () => {
    const context = await browser.newContext({ baseURL: server.url, locale: 'en-US' });
    await context.addCookies(consent.map((c) => ({ url: server.url, ...c })));
    const page = await context.newPage();
    const warnings = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await page.goto('/login');
    await settled(page);
    assert.equal(await page.textContent('h1'), 'Sign in');
    await page.locator('.language-switcher button[data-lng="pt"]').click();
    await page.locator('h1', { hasText: 'Entrar' }).waitFor();
    // The server sends the rendered page in the chosen language (the cookie the switcher set)…
    const html = await (await context.request.get('/login')).text();
    assert.match(html, /<html lang="?pt/);
    // …so the next visit arrives in it and is hydrated, not rendered again in another.
    await page.reload({ waitUntil: 'commit' });
    await page.locator('h1', { hasText: 'Entrar' }).waitFor();
    await page.locator('#root:not([data-prerendered]) button[type=submit]:enabled').waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'pt');
    assert.deepEqual(
      warnings.filter((w) => w.includes('rendered again')),
      [],
      'hydrated, not rendered again',
    );
    await context.close();
  });
  test('a referral code of an account opens registration at step 1', async () => {
    const page = await visit(`/register/referred/${server.userReferral}`);
    assert.equal(await page.textContent('h1'), 'Create your account');
    assert.equal(await page.getAttribute('.step', 'data-step'), '1');
    assert.match(await page.textContent('.step'), /Step 1 of 3/);
  });
  test('registration step 1 shows the core’s messages, then moves to step 2', async () => {
    const page = await visit(`/register/referred/${server.userReferral}`);
    await page.fill('#field-names', 'Jo');
    await page.fill('#field-email', 'Maria@Example.com');
    await page.click('button[type=submit]');
    await page.locator('.field-error:not(:empty)').nth(4).waitFor();
    const errors = await page.locator('.field-error:not(:empty)').allTextContents();
    assert.ok(errors.includes('Use 3 to 40 letters and spaces only.'), errors.join(' | '));
    assert.ok(errors.includes('Enter a valid email in lowercase, like name@example.com.'));
    assert.ok(errors.includes('This field is required.'));
    await page.fill('#field-names', 'José Ñúñez');
    await page.fill('#field-lastnames', 'João Conceição');
    await page.fill('#field-email', 'maria@example.com');
    await page.fill('#field-emailC', 'maria@example.com');
    await page.fill('#field-cel', '+34 612 34 56 78');
    await page.click('button[type=submit]');
    await page.waitForSelector('#field-password');
    assert.equal(await page.getAttribute('.step', 'data-step'), '2');
  });
  test('an unknown path shows the 404 page', async () => {
    const page = await visit('/no/such/page');
    assert.equal(await page.textContent('h1'), '404');
    assert.equal(await page.textContent('main p'), 'This page does not exist.');
  });
  test('a page that fails to load shows Unexpected Application Error! with the error text', async () => {
    const page = await openPage(browser, server.url, { storage: user, cookies: consent });
    await page.route(/page-dashboard\.[0-9a-f]+\.js$/, (route) => route.abort());
    await page.goto('/dashboard');
    await settled(page);
    assert.equal(await page.textContent('h1'), 'Unexpected Application Error!');
    assert.match(await page.textContent('.error-text'), /chunk|load/i);
  });
});
