// No console errors: every public and member page, opened as a visitor or the demo member from
// browsers in en-US, es-ES and pt-BR (their regional tags are what a landing visit sends the
// server), logs no error and throws nothing; nor does a member who opens an admin address.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { consent, DEMO_USER, launchBrowser, moveInside, openPage, settled, startServer } from './harness.mjs';
import { publicRoutes, userRoutes } from '../../src/routes.js';

let server;
let browser;
before(async () => {
  server = await startServer({ chain: true, seed: ['--users', '12', '--ico-tx', '20', '--seed', '5'] });
  browser = await launchBrowser();
  server.giveWallet(DEMO_USER.email);
});
after(async () => {
  await browser?.close();
  server?.stop();
});

/** A page whose console errors and uncaught errors are kept in `page.logged`, as "route: text". */
async function watched(options) {
  const page = await openPage(browser, server.url, options);
  page.logged = [];
  page.route = '';
  page.on('console', (m) => {
    // Errors, and the warning a rendered page logs when React had to render it again (#418).
    const hydration = m.type() === 'warning' && /rendered again|#418|hydrat/i.test(m.text());
    if (m.type() === 'error' || hydration)
      page.logged.push(`${page.route}: ${m.text()} ${m.location()?.url ?? ''}`.trim());
  });
  page.on('pageerror', (e) => page.logged.push(`${page.route}: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) page.logged.push(`${page.route}: ${r.status()} ${r.url()}`);
  });
  return page;
}

/**
 * Opens `route` (with a page load, or `inside` the app as its menu does), waits for the app's
 * heading and for what loads after it.
 */
async function visit(page, route, { heading = true, inside = false } = {}) {
  page.route = route;
  if (inside) await moveInside(page, route);
  else await page.goto(route);
  if (heading) await settled(page);
  else await page.waitForLoadState('load');
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForTimeout(300);
}

const publicPages = () => [
  ['/landing', false],
  ['/', false],
  ['/login', true],
  ['/recover', true],
  ['/solvency', true],
  [`/register/referred/${server.userReferral}`, true],
];

test('every public route is opened here, or is reached midway through a flow', () => {
  const opened = ['login', 'recover', 'solvency', 'register/referred/:referralCode'];
  const midway = ['verifycode', 'reset'];
  for (const [path] of publicRoutes) assert.ok([...opened, ...midway].includes(path), `/${path} is not opened here`);
});

for (const locale of ['en-US', 'es-ES', 'pt-BR']) {
  test(`public pages from a ${locale} browser log no console error`, async () => {
    const page = await watched({ locale, cookies: consent });
    const asked = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/v1/public/content/'))
        asked.push([new URL(r.url()).searchParams.get('lang'), r.status()]);
    });
    for (const [route, heading] of publicPages()) await visit(page, route, { heading });
    // The landing's notices were asked in the browser's language and answered.
    const language = locale.split('-')[0];
    assert.ok(asked.length > 0, 'the landing asked for its notices');
    for (const [lang, status] of asked) assert.deepEqual([lang, status], [language, 200]);
    assert.deepEqual(page.logged, []);
    await page.context().close();
  });

  // Each member page is loaded first in English; in the other two it is reached from inside the
  // app, as a member moves between pages (a load costs about 1.3 s of CPU a page).
  test(`member pages from a ${locale} browser log no console error`, async () => {
    const page = await watched({ locale, cookies: consent, storage: await server.storageFor(DEMO_USER) });
    const routes = [
      ...userRoutes(server.settings.product ?? 'LVLX').map(([path]) => `/${path}`),
      '/dashboardfaqs/wallet',
    ];
    for (const [index, route] of routes.entries())
      await visit(page, route, { inside: locale !== 'en-US' && index > 0 });
    assert.deepEqual(page.logged, []);
    await page.context().close();
  });
}

test('a signed-in member who opens /admin is sent on without a hydration error', async () => {
  const page = await watched({ locale: 'es-ES', cookies: consent, storage: await server.storageFor(DEMO_USER) });
  for (const route of ['/admin', '/admin/tables/users', '/admin/audit']) {
    await visit(page, route, { heading: false });
    await page.waitForSelector('#root:not([data-prerendered]) h1', { timeout: 15_000 });
  }
  // And after switching the language, as a member who reads the app in another one does.
  await page.evaluate(() => localStorage.setItem('language', 'pt'));
  await visit(page, '/admin', { heading: false });
  await page.waitForSelector('#root:not([data-prerendered]) h1', { timeout: 15_000 });
  assert.deepEqual(page.logged, []);
  await page.context().close();
});
