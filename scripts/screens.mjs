// Photographs every page of web/src/routes.js on a seeded server with a chain: the public pages
// and the member's (the demo member, wallet linked) at 390 px in es and pt and at 1440 px in en,
// the admin's at 1280 px in en, 1440 px in en and 390 px in es, into
// target/screens/<area>/<page>-<width>-<lng>.png (or SCREENS_OUT). It waits for each route's ready
// selector, opens the FAQ's answers, and prints per shot whether the page scrolls sideways and
// whether each table fits its box (at 390 px tables are cards). For looking at the product as a
// whole after a change (`npm run screens`, a few minutes); the browser tests measure the same rules.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  consent,
  DEMO_ADMIN,
  DEMO_USER,
  launchBrowser,
  openPage,
  settled,
  startServer,
} from '../web/test/browser/harness.mjs';
import { adminRoutes, publicRoutes, userRoutes } from '../web/src/routes.js';

const OUT = process.env.SCREENS_OUT ?? new URL('../target/screens/', import.meta.url).pathname;
const MEMBER = [
  [390, 'es'],
  [390, 'pt'],
  [1440, 'en'],
];
const ADMIN = [
  [1280, 'en'],
  [1440, 'en'],
  [390, 'es'],
];

const server = await startServer({
  chain: true,
  seed: ['--users', '60', '--ico-tx', '300', '--nft-stakes', '30', '--lvlx-stakes', '30', '--seed', '7'],
});
server.giveWallet(DEMO_USER.email);
const browser = await launchBrowser();
const screens = (routes) => routes.map(([path, , , ready]) => [path, ready ?? 'h1']);
const areas = [
  [
    'public',
    null,
    MEMBER,
    [
      ['', 'h1'],
      ...publicRoutes.filter(([, guard]) => guard === 'public' || guard === null).map(([path]) => [path, 'h1, form']),
      [`register/referred/${server.userReferral}`, 'form'],
    ],
  ],
  [
    'member',
    DEMO_USER,
    MEMBER,
    [...screens(userRoutes(server.settings.product ?? 'LVLX')), ['dashboardfaqs/wallet', 'ol li']],
  ],
  ['admin', DEMO_ADMIN, ADMIN, screens(adminRoutes)],
];
let problems = 0;
try {
  for (const [area, account, shapes, routes] of areas) {
    mkdirSync(join(OUT, area), { recursive: true });
    const storage = account ? await server.storageFor(account) : {};
    for (const [width, language] of shapes) {
      const page = await openPage(browser, server.url, {
        storage: { ...storage, language },
        cookies: consent,
        viewport: { width, height: 900 },
      });
      for (const [path, ready] of routes) {
        await page.goto(`/${path}`);
        await settled(page);
        await page
          .locator(ready)
          .first()
          .waitFor({ timeout: 15_000 })
          .catch(() => {
            problems += 1;
            console.log(`!! ${path} ${width} ${language}: ${ready} never showed`);
          });
        await page
          .waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 15_000 })
          .catch(() => {});
        await page.evaluate(() =>
          document.querySelectorAll('details.faq-item').forEach((d) => {
            d.open = true;
          }),
        );
        await page.waitForTimeout(300);
        const shape = await page.evaluate(() => ({
          sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth,
          tables: [...document.querySelectorAll('.data-table')].map((box) => {
            const table = box.querySelector('.rdt_table');
            return table ? table.scrollWidth - box.clientWidth : 0;
          }),
        }));
        const name =
          path
            .replace(/^admin\//, '')
            .replace(/\/.*referred.*/, '')
            .replace(/\//g, '-') || 'landing';
        await page.screenshot({ path: join(OUT, area, `${name}-${width}-${language}.png`), fullPage: true });
        const over = shape.tables.filter((px) => px > 1);
        const bad = shape.sideways || (width >= 1280 && over.length > 0);
        if (bad) problems += 1;
        console.log(
          `${bad ? '!!' : 'ok'} ${area} ${name} ${width} ${language}` +
            `${shape.sideways ? ' page scrolls sideways' : ''}` +
            `${over.length ? ` tables over by ${over.join(', ')} px` : ''}`,
        );
      }
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  server.stop();
}
console.log(`\n${problems} shot(s) with a problem; the screenshots are in ${OUT}`);
process.exitCode = problems ? 1 : 0;
