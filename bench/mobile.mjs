// First load on a phone over a slow network, as Lighthouse's mobile profile sets it: slow 4G
// (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up), the CPU 4× slower, a cold cache, a 390 px
// touch screen. For the landing page (until its heading and sign-in button show) and the sign-in
// page (until the email and password fields show): that time, the largest contentful paint, the
// layout shift while loading (CLS), the bytes transferred, and when the app has taken over the
// page the server sent rendered (its buttons act from then on). Baseline in the same run: a static
// HTML page of one heading and one paragraph, from a plain Node server under the same profile
// (what the network alone costs).
// Run: npm run bench:mobile   (after scripts/build.sh --release; BENCH_SERVER_BINARY picks the binary)
import { createServer } from 'node:http';
import { launchBrowser, startServer } from '../web/test/browser/harness.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const server = await startServer({ binary: process.env.BENCH_SERVER_BINARY ?? 'target/release/lvlx' });
const staticPage = createServer((_, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>LVLX</title></head><body><h1>LVLX</h1><p>Buy, stake and earn.</p></body></html>',
  );
});
await new Promise((resolve) => staticPage.listen(0, '127.0.0.1', resolve));
const staticUrl = `http://127.0.0.1:${staticPage.address().port}`;
const browser = await launchBrowser();

/** One cold load of `url` under the profile; answers {ms, lcp, cls, bytes, app} once `ready` shows. */
async function load(url, ready) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
  });
  await page.addInitScript(() => {
    window.__cls = 0;
    window.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__lcp = e.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  const started = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  for (const selector of ready) await page.locator(selector).first().waitFor({ state: 'visible', timeout: 60_000 });
  const ms = performance.now() - started;
  // (The static page has no app: its content is all there is.)
  if (await page.locator('#root').count())
    await page.locator('#root:not([data-prerendered])').waitFor({ state: 'attached', timeout: 60_000 });
  const app = performance.now() - started;
  // Shifts that come after the fields show still count (fonts, late boxes): a second more.
  await page.waitForTimeout(1000);
  const { cls, lcp } = await page.evaluate(() => ({ cls: window.__cls, lcp: window.__lcp }));
  await context.close();
  return { ms, lcp, cls, bytes, app };
}

const cases = [
  ['baseline: a static HTML page', `${staticUrl}/`, ['h1']],
  ['landing (/landing)', `${server.url}/landing`, ['h1', 'a.button']],
  ['sign-in (/login)', `${server.url}/login`, ['input[type="email"]', 'input[type="password"]']],
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
try {
  for (const [label, url, ready] of cases) {
    const runs = [];
    for (let i = 0; i < ROUNDS; i += 1) runs.push(await load(url, ready));
    rows.push([label, runs]);
  }
} finally {
  await browser.close();
  staticPage.close();
  server.stop();
}
console.log(
  `| slow 4G, CPU ×4, cold (median of ${ROUNDS}) | content shown | LCP | CLS | KB transferred | app took over |`,
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const [label, runs] of rows) {
  const m = (key) => median(runs.map((r) => r[key]));
  console.log(
    `| ${label} | ${(m('ms') / 1000).toFixed(2)} s | ${(m('lcp') / 1000).toFixed(2)} s | ${m('cls').toFixed(3)} | ${Math.round(m('bytes') / 1024)} | ${(m('app') / 1000).toFixed(2)} s |`,
  );
}
