// First load on a phone over a slow network, as Lighthouse's mobile profile sets it: slow 4G
// (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up), the CPU 4× slower, a cold cache, a 390 px
// touch screen. For the landing page (until its heading and sign-in button show) and the sign-in
// page (until the email and password fields show): that time, the largest contentful paint, the
// layout shift while loading (CLS), the bytes transferred, and when the app has taken over the
// page the server sent rendered (its buttons act from then on). For sign-in also when the form can
// be sent (its button acts: the early sending of web/src/accounts/early.js, or the app), and, in
// loads of their own, when the sign-in request leaves after a click at that moment (the captcha
// at production's difficulty, solved by the small core). Baseline in the same run: a static HTML
// page of one heading and one paragraph, from a plain Node server under the same profile (what
// the network alone costs).
// Run: npm run bench:mobile   (after scripts/build.sh --release; BENCH_SERVER_BINARY picks the binary)
import { createServer } from 'node:http';
import { launchBrowser, startServer } from '../web/test/browser/harness.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// The captcha as production asks it (lvlx.example.toml), not the tests' quick one.
const server = await startServer({
  binary: process.env.BENCH_SERVER_BINARY ?? 'target/release/lvlx',
  env: { LVLX_CAPTCHA_DIFFICULTY: '18' },
});
const staticPage = createServer((_, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>LVLX</title></head><body><h1>LVLX</h1><p>Buy, stake and earn.</p></body></html>',
  );
});
await new Promise((resolve) => staticPage.listen(0, '127.0.0.1', resolve));
const staticUrl = `http://127.0.0.1:${staticPage.address().port}`;
const browser = await launchBrowser();

/**
 * One cold load of `url` under the profile; answers {ms, lcp, cls, bytes, app} once `ready` shows,
 * and `sendable`, when `form` is given, once its submit button acts. With `send`, fills the form
 * with `send` ({email, password}), clicks as soon as it can be sent and answers only `sent`: when
 * the sign-in request left.
 */
async function load(url, ready, { form, send } = {}) {
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
  if (send) {
    await page.fill('input[type="email"]', send.email);
    await page.fill('input[type="password"]', send.password);
    const request = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/v1/login'), {
      timeout: 60_000,
    });
    await page.locator(`${form} button[type="submit"]:enabled`).click();
    await request;
    const sent = performance.now() - started;
    await context.close();
    return { sent };
  }
  if (form) await page.locator(`${form} button[type="submit"]:enabled`).waitFor({ timeout: 60_000 });
  const sendable = performance.now() - started;
  // (The static page has no app: its content is all there is.)
  if (await page.locator('#root').count())
    await page.locator('#root:not([data-prerendered])').waitFor({ state: 'attached', timeout: 60_000 });
  const app = performance.now() - started;
  // Shifts that come after the fields show still count (fonts, late boxes): a second more.
  await page.waitForTimeout(1000);
  const { cls, lcp } = await page.evaluate(() => ({ cls: window.__cls, lcp: window.__lcp }));
  await context.close();
  return { ms, lcp, cls, bytes, app, sendable: form ? sendable : null };
}

const cases = [
  ['baseline: a static HTML page', `${staticUrl}/`, ['h1']],
  ['landing (/landing)', `${server.url}/landing`, ['h1', 'a.button']],
  ['sign-in (/login)', `${server.url}/login`, ['input[type="email"]', 'input[type="password"]'], { form: 'form' }],
];
const signIn = { email: 'demo@lvlx.local', password: 'Demo#2026x' };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
const sent = [];
try {
  for (const [label, url, ready, options] of cases) {
    const runs = [];
    for (let i = 0; i < ROUNDS; i += 1) runs.push(await load(url, ready, options));
    rows.push([label, runs]);
  }
  for (let i = 0; i < ROUNDS; i += 1)
    sent.push((await load(`${server.url}/login`, cases[2][2], { form: 'form', send: signIn })).sent);
} finally {
  await browser.close();
  staticPage.close();
  server.stop();
}
const seconds = (ms) => (ms === null ? '' : `${(ms / 1000).toFixed(2)} s`);
console.log(
  `| slow 4G, CPU ×4, cold (median of ${ROUNDS}) | content shown | form can be sent | LCP | CLS | KB transferred | app took over |`,
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [label, runs] of rows) {
  const m = (key) => median(runs.map((r) => r[key]));
  console.log(
    `| ${label} | ${seconds(m('ms'))} | ${seconds(m('sendable'))} | ${seconds(m('lcp'))} | ${m('cls').toFixed(3)} | ${Math.round(m('bytes') / 1024)} | ${seconds(m('app'))} |`,
  );
}
console.log(
  `\nsign-in request sent, clicked as soon as the form can be sent (captcha difficulty 18): median ${seconds(median(sent))} (${sent.map(seconds).join(', ')})`,
);
