// Photographs every admin page (web/src/routes.js's admin list) at 1280 px, 1440 px and 390 px
// in English and Spanish, on a seeded server, into target/screens/admin/<page>-<width>-<lng>.png,
// and prints per shot whether the page scrolls sideways and whether each table fits its box (at
// 390 px tables are cards). For reviewing the admin workspace as a whole after a layout change:
// `npm run screens:admin` (about a minute); the browser tests measure the same rules.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { consent, DEMO_ADMIN, launchBrowser, openPage, settled, startServer } from '../web/test/browser/harness.mjs';
import { adminRoutes } from '../web/src/routes.js';

const OUT = new URL('../target/screens/admin/', import.meta.url).pathname;
const WIDTHS = [1280, 1440, 390];
const LANGUAGES = ['en', 'es'];
mkdirSync(OUT, { recursive: true });

const server = await startServer({
  seed: ['--users', '60', '--ico-tx', '300', '--nft-stakes', '30', '--lvlx-stakes', '30', '--seed', '7'],
});
const browser = await launchBrowser();
let problems = 0;
try {
  const storage = await server.storageFor(DEMO_ADMIN);
  for (const language of LANGUAGES) {
    for (const width of WIDTHS) {
      const page = await openPage(browser, server.url, {
        storage: { ...storage, language },
        cookies: consent,
        viewport: { width, height: 900 },
      });
      for (const [path] of adminRoutes) {
        await page.goto(`/${path}`);
        await settled(page);
        // A table page: its rows (or cards); the others: their heading is enough.
        await page.waitForSelector('.rdt_TableRow, .row-card', { timeout: 5000 }).catch(() => page.waitForTimeout(500));
        await page.waitForTimeout(300);
        const shape = await page.evaluate(() => ({
          sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth,
          tables: [...document.querySelectorAll('.data-table')].map((box) => {
            const table = box.querySelector('.rdt_table');
            return table ? table.scrollWidth - box.clientWidth : 0;
          }),
        }));
        const name = path.replace(/^admin\//, '').replace(/\//g, '-');
        const file = join(OUT, `${name}-${width}-${language}.png`);
        await page.screenshot({ path: file, fullPage: true });
        const over = shape.tables.filter((px) => px > 1);
        const bad = shape.sideways || (width >= 1280 && over.length > 0);
        if (bad) problems += 1;
        console.log(
          `${bad ? '!!' : 'ok'} ${name} ${width} ${language}` +
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
