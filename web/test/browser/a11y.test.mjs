// Accessibility (WCAG 2.2 AA): axe-core runs on every screen, member and admin, in each
// language, against the real server with a chain and seeded data: no serious or critical
// violation. Keyboard paths and announcements are tested where their flows are (accounts,
// wallet, staking, network, help), with keyboard.mjs, whose own checks are proven here.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  consent,
  DEMO_ADMIN,
  DEMO_USER,
  launchBrowser,
  moveInside,
  openPage,
  settled,
  startServer,
} from './harness.mjs';
import { announced, tabTo } from './keyboard.mjs';
import { adminRoutes, publicRoutes, userRoutes } from '../../src/routes.js';

// Evaluated, not injected as a <script>: the app's CSP (script-src 'self') rightly refuses inline scripts.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

let server;
let browser;
before(async () => {
  server = await startServer({
    chain: true,
    seed: ['--users', '40', '--ico-tx', '120', '--nft-stakes', '12', '--lvlx-stakes', '12', '--seed', '3'],
  });
  browser = await launchBrowser();
  server.giveWallet(DEMO_USER.email);
});
after(async () => {
  await browser?.close();
  server?.stop();
});

// Every member and admin route, with what shows once it has its content (routes.js), and the
// FAQ's wallet guide after the FAQ.
const screens = (routes) => routes.map(([path, , , ready]) => [`/${path}`, ready]);
const member = screens(userRoutes('LVLX')).flatMap((screen) =>
  screen[0] === '/dashboardfaqs' ? [screen, ['/dashboardfaqs/wallet', 'ol li']] : [screen],
);
const admin = screens(adminRoutes);

const open = [
  ['/login', 'form'],
  ['/solvency', '[data-testid="solvency-claims"]'],
  ['/recover', 'form'],
  // The demo user's own link (a link that belongs to no account stops before the form).
  ['/register/referred/:referral', 'form'],
  ['/no/such/page', 'h1'],
];
// Reached only in the middle of a sign-in or a recovery (their guards send anyone else away).
const midway = ['/verifycode', '/reset'];
test('every public route is checked here, or named as reached midway', () => {
  const pattern = (path) => new RegExp(`^/${path.replace(/:[a-zA-Z]+/g, '[^/]+')}$`);
  for (const [path] of publicRoutes) {
    const checked = open.some(([route]) => pattern(path).test(route)) || midway.includes(`/${path}`);
    assert.ok(checked, `/${path} has no line here`);
  }
});

/** Serious and critical violations on the page as it stands, as "rule: target" lines. */
async function violations(page) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(AXE);
  const result = await page.evaluate(
    async (tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }),
    TAGS,
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
    );
}

for (const language of ['en', 'es', 'pt']) {
  for (const [area, routes, account] of [
    ['public', open, null],
    ['member', member, DEMO_USER],
    ['admin', admin, DEMO_ADMIN],
  ]) {
    test(`axe: ${area} screens in ${language}, no serious or critical violations`, async () => {
      const storage = account ? await server.storageFor(account) : {};
      const page = await openPage(browser, server.url, { storage: { ...storage, language }, cookies: consent });
      await page.context().addInitScript(countFetches);
      const found = [];
      for (const [index, [route, ready]] of routes.entries()) {
        await visit(page, route.replace(':referral', server.userReferral), { inside: account && index > 0 });
        await page
          .locator(ready)
          .first()
          .waitFor({ timeout: 20_000 })
          .catch((e) => {
            throw new Error(`${route}: ${e.message}`);
          });
        // Whatever loads after the page (chain reads, tables) has arrived: nothing busy any more.
        await page
          .waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 20_000 })
          .catch(() => {});
        await quiet(page);
        // Open every disclosure so their content is checked too.
        await page.evaluate(() =>
          document.querySelectorAll('details').forEach((d) => {
            d.open = true;
          }),
        );
        await page.waitForTimeout(150);
        found.push(...(await violations(page)).map((v) => `${route}: ${v}`));
      }
      assert.deepEqual(found, []);
      await page.context().close();
    });
  }
}

/** Counts the page's requests in flight (`window.__inFlight`), for `quiet`. */
function countFetches() {
  window.__inFlight = 0;
  const fetch = window.fetch;
  window.fetch = async (...args) => {
    window.__inFlight += 1;
    try {
      return await fetch(...args);
    } finally {
      window.__inFlight -= 1;
    }
  };
}

/** Until no request has been in flight for 300 ms (at most 10 s). */
async function quiet(page) {
  await page
    .waitForFunction(
      () => {
        const now = performance.now();
        if (window.__inFlight > 0) window.__busySince = now;
        return window.__inFlight === 0 && now - (window.__busySince ?? 0) >= 300;
      },
      null,
      { timeout: 10_000, polling: 50 },
    )
    .catch(() => {});
}

/**
 * Opens `route`: with a page load, or (`inside`) as a signed-in person moves between pages, inside
 * the app. A page load a screen cost about 1.3 s (the bundle, the core and axe again) of each of
 * the 72 member and admin screens; a screen checks the same either way.
 */
async function visit(page, route, { inside }) {
  if (inside) return moveInside(page, route);
  await page.goto(route);
  await settled(page);
}

test('the keyboard checks fail where they should: an invisible focus, an unreachable control, a silent change', async () => {
  const page = await browser.newPage();
  await page.setContent(`<style>button { font: 16px sans-serif; } .bare:focus { outline: none; }</style>
    <button>drawn</button> <button class="bare">bare</button> <button tabindex="-1">skipped</button>
    <p id="quiet"></p> <p aria-live="polite" id="loud"></p>`);
  await tabTo(page, page.getByRole('button', { name: 'drawn' }));
  await assert.rejects(tabTo(page, page.getByRole('button', { name: 'bare' })), /the focus shows/);
  await assert.rejects(tabTo(page, page.getByRole('button', { name: 'skipped' }), { max: 5 }), /not reached/);
  await page.evaluate(() => {
    document.getElementById('quiet').textContent = 'unheard';
    document.getElementById('loud').textContent = 'heard';
  });
  await announced(page, 'heard', { timeout: 2_000 });
  await assert.rejects(announced(page, 'unheard', { timeout: 1_000 }), /Timeout/);
  await page.close();
});
