// Starts the real server (its own temp data folder, a free loopback port) and headless Chromium
// for a browser test file, and gives the tests small helpers.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { calldata, solveCaptcha } from '../../src/core/index.js';
import { injectWallet } from './wallet.mjs';

const execFileAsync = promisify(execFile);

const root = new URL('../../../', import.meta.url).pathname;
/** The translations of `language` (en, es, pt), as the app reads them. */
export const locale = (language) =>
  JSON.parse(readFileSync(join(root, `locales/${language}/${language}.json`), 'utf8'));
export const en = locale('en');
export const es = locale('es');
export const pt = locale('pt');

// The pages a test opens are closed when it ends (those a `before` hook opens are the file's):
// a page left open keeps its app's polls, timers and animations running, and its renderer
// taking the CPU, until the whole file ends. Only under the test runner: scripts and benches
// import this file too.
let opened = null;
if (process.env.NODE_TEST_CONTEXT) {
  beforeEach(() => {
    opened = [];
  });
  afterEach(async () => {
    const pages = opened ?? [];
    opened = null;
    await Promise.allSettled(pages.map((page) => page.context().close()));
  });
}

/** Where the tests' screenshots go (LVLX_SHOTS, else target/screens/), made if missing. */
export const SHOTS = process.env.LVLX_SHOTS ?? join(root, 'target/screens/');
mkdirSync(SHOTS, { recursive: true });

/** Starts anvil (npm) on a free loopback port with chain id 137; answers {url, rpc(method, params), stop}. */
export async function startAnvil() {
  const child = spawn(join(root, 'scripts/anvil.sh'), ['--chain-id', '137', '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('anvil did not start in 20 s')), 20_000);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/Listening on (\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(`http://${m[1]}`);
      }
    });
    child.on('exit', (code) => reject(new Error(`anvil exited with ${code}`)));
  });
  child.stdout.resume();
  let id = 0;
  const rpc = async (method, params = []) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    return res.json();
  };
  /**
   * Sends `data` to the owned contract `to` as its owner: the demo Safe `lvlx chain deploy` made,
   * through execTransaction from its one owner (dev account 0, Safe's "sent by an owner"
   * signature). The transaction's hash.
   */
  const asOwner = async (to, data) => {
    const [from] = (await rpc('eth_accounts')).result;
    const owned = await rpc('eth_call', [{ to, data: calldata('IcoSale', 'owner') }, 'latest']);
    const safe = `0x${owned.result.slice(-40)}`;
    const signature = `0x${from.slice(2).toLowerCase().padStart(64, '0')}${'0'.repeat(64)}01`;
    const zero = `0x${'0'.repeat(40)}`;
    const exec = calldata('SafeL2', 'execTransaction', [to, 0, data, 0, 0, 0, 0, zero, zero, signature]);
    const sent = await rpc('eth_sendTransaction', [{ from, to: safe, data: exec }]);
    if (!sent.result) throw new Error(`owner call refused: ${JSON.stringify(sent.error)}`);
    // Mined when the chain mines next (a test may have anvil mine on an interval).
    let receipt = null;
    for (let i = 0; i < 300 && !receipt; i += 1) {
      receipt = (await rpc('eth_getTransactionReceipt', [sent.result])).result;
      if (!receipt) await new Promise((done) => setTimeout(done, 100));
    }
    if (receipt?.status !== '0x1') throw new Error(`owner call reverted: ${sent.result}`);
    return sent.result;
  };
  return { url, rpc, asOwner, stop: () => child.kill('SIGTERM') };
}

/**
 * Starts `lvlx serve` on a fresh data folder (or `dataDir`, kept afterwards) with the demo
 * accounts, after `lvlx seed <seed…>` when `seed` is given; with `chain`, on its own anvil with
 * the contracts deployed by `lvlx chain deploy` (server.anvil, server.chain).
 */
/** `env`: extra LVLX_ configuration (e.g. LVLX_KYC as a TOML inline table). */
/** `confirmations`: blocks an event waits under before it is final (0: final at once). */
export async function startServer({
  seed,
  dataDir: keptDir,
  binary: binaryPath,
  chain = false,
  confirmations = 0,
  env: extra = {},
} = {}) {
  const dataDir = keptDir ?? mkdtempSync(join(tmpdir(), 'lvlx-browser-'));
  const binary = join(root, binaryPath ?? process.env.TEST_SERVER_BINARY ?? 'target/debug/lvlx');
  // A low captcha difficulty keeps the tests quick; the rules are the same.
  const env = {
    ...process.env,
    LVLX_BIND: '127.0.0.1:0',
    LVLX_DATA_DIR: dataDir,
    LVLX_LOG: 'warn',
    LVLX_CAPTCHA_DIFFICULTY: '8',
    LVLX_AUTH_PER_MINUTE: '600',
    LVLX_CONFIG: join(dataDir, 'lvlx.toml'),
    ...extra,
  };
  const anvil = chain ? await startAnvil() : null;
  // Asynchronously: anvil logs every transaction to a pipe this process must keep reading.
  if (anvil)
    await execFileAsync(binary, ['chain', 'deploy', '--rpc', anvil.url, '--confirmations', String(confirmations)], {
      cwd: root,
      env,
    });
  const demo = execFileSync(binary, ['demo'], { cwd: root, env, encoding: 'utf8' });
  if (seed) execFileSync(binary, ['seed', ...seed], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const [, userReferral] = demo.match(/register\/referred\/([0-9a-f]{32}) \(demo user\)/);
  const child = spawn(binary, ['serve'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start in 20 s')), 20_000);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/serving at (http:\/\/\S+?)\/?\s/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const sessions = new Map();
  const api = async (path, body, token) => {
    const res = await fetch(`${url}/api/v1/${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await res.json();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(data)}`);
    return data;
  };
  const server = {
    url,
    pid: child.pid,
    userReferral,
    dataDir,
    anvil,
    /** The public settings (chain addresses among them) the app reads. */
    settings: await api('config'),
    /** Rows of a read-only SQL query on the server's database (python3's sqlite3). */
    sql(query) {
      const script =
        'import json,sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(json.dumps(c.execute(sys.argv[2]).fetchall()))';
      return JSON.parse(
        execFileSync('python3', ['-c', script, join(dataDir, 'lvlx.sqlite3'), query], { encoding: 'utf8' }),
      );
    },
    /**
     * Test set-up: the account `email` has linked `wallet` (default: a fixed test address), as if
     * it had signed for it. Call before signing that account in.
     */
    giveWallet(email, wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8') {
      const script =
        'import sqlite3,sys; c=sqlite3.connect(sys.argv[1], timeout=10); c.execute("UPDATE users SET wallet=? WHERE email=?", (sys.argv[2], sys.argv[3])); c.commit()';
      execFileSync('python3', ['-c', script, join(dataDir, 'lvlx.sqlite3'), wallet, email]);
    },
    /**
     * Local storage of a real signed-in browser for `account`, signed in once per server
     * through the API with the mailed code (code sends are limited per account); `fresh` signs
     * in again, as a browser does after the account changed (a linked wallet).
     */
    async storageFor({ email, password }, { fresh = false } = {}) {
      if (fresh || !sessions.has(email)) {
        const { challenge, difficulty } = await api('captcha');
        const step1 = await api('login', {
          email,
          password,
          captcha: { challenge, solution: solveCaptcha(challenge, difficulty) },
        });
        const done = await api('verifycode', { code: server.codeFor(email) }, step1.token);
        sessions.set(email, done);
      }
      const { token, user, admin } = sessions.get(email);
      return admin
        ? { sessionToken: token, adminInfo: JSON.stringify(admin) }
        : { sessionToken: token, userInfo: JSON.stringify(user) };
    },
    /** The newest code mailed to `to` (4 digits; a claim's has 6), read from the server's outbox. */
    codeFor(to, digits = 4) {
      const outbox = join(dataDir, 'outbox');
      const mails = readdirSync(outbox)
        .sort() // the server names outbox mails in sending order
        .map((f) => ({ text: readFileSync(join(outbox, f), 'utf8') }))
        .filter((m) => m.text.includes(`To: ${to}`));
      if (!mails.length) throw new Error(`no mail to ${to}`);
      const body = decodeMail(mails.at(-1).text);
      return body.match(new RegExp(`\\b[1-9]\\d{${digits - 1}}\\b`))[0];
    },
    /** Admin or user API call with a real session of `account`. */
    async call(account, path, { raw = false } = {}) {
      const { sessionToken } = await server.storageFor(account);
      const res = await fetch(`${url}/api/v1/${path}`, { headers: { Authorization: `Bearer ${sessionToken}` } });
      if (raw) return res;
      if (!res.ok) throw new Error(`${path}: ${res.status}`);
      return res.json();
    },
    stop() {
      child.kill('SIGINT');
      anvil?.stop();
      if (!keptDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** The text of a single-part mail: 7bit, quoted-printable or base64. */
function decodeMail(eml) {
  const [head, ...rest] = eml.split('\r\n\r\n');
  const body = rest.join('\r\n\r\n');
  if (/content-transfer-encoding: base64/i.test(head))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (!/content-transfer-encoding: quoted-printable/i.test(head)) return body;
  const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

export const DEMO_USER = { email: 'demo@lvlx.local', password: 'Demo#2026x' };
export const DEMO_ADMIN = { email: 'admin@lvlx.local', password: 'Admin#2026' };

// Chromium's headless shell (Debian's chromium-headless-shell, what Playwright itself runs
// headless), the same engine without the full browser around it: the 169 browser tests took 317
// s of its CPU against 616 s of the full chromium's, 263 s of wall against 394 s, all passing
// either way (2026-11-29, the tests alone, each process group's CPU from its cgroup). Run
// directly, not through /usr/bin's wrapper, which does not exec it (a kill would miss it).
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** A page whose uncaught errors fail the test, starting from stored values set before any script. */
export async function openPage(
  browser,
  baseUrl,
  { storage = {}, cookies = [], viewport = { width: 1280, height: 800 }, phone = false, locale, timezoneId } = {},
) {
  // `phone`: a touch screen with a coarse pointer, as a phone's browser reports. `locale`: the
  // browser's language (navigator.language and Accept-Language), e.g. 'es-ES'. `timezoneId`: the
  // reader's time zone (the machine's otherwise), e.g. 'America/Sao_Paulo'.
  const context = await browser.newContext({
    viewport,
    baseURL: baseUrl,
    ...(locale ? { locale } : {}),
    ...(timezoneId ? { timezoneId } : {}),
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  });
  if (cookies.length) await context.addCookies(cookies.map((c) => ({ url: baseUrl, ...c })));
  await context.addInitScript((values) => {
    // Only once per context: a later navigation must see what the app did to storage.
    if (!sessionStorage.getItem('__seeded')) {
      for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v);
      sessionStorage.setItem('__seeded', '1');
    }
  }, storage);
  const page = await context.newPage();
  opened?.push(page);
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e));
  return page;
}

/**
 * The demo admin signed in at `route` (a table page), once its first rows show. `clipboard`: the
 * page may read and write the clipboard (the copy buttons); `timezoneId`: as openPage's.
 */
export async function adminPage(
  browser,
  server,
  route,
  { width = 1440, height = 1000, clipboard = false, timezoneId } = {},
) {
  const page = await openPage(browser, server.url, {
    storage: await server.storageFor(DEMO_ADMIN),
    cookies: consent,
    viewport: { width, height },
    timezoneId,
  });
  if (clipboard) await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.goto(route);
  await settled(page);
  await page.waitForSelector('.rdt_TableRow', { timeout: 30_000 });
  return page;
}

/**
 * `account` (the demo member unless given; null: a visitor) signed in at `route`, once the app
 * shows its heading. `fresh`: a new session rather than the one kept for the account (after the
 * account changed); `language`: the language stored for the page; `viewport`, `phone`: as
 * openPage's; `clipboard`: the page may read and write the clipboard; `wallet`: a wallet injected
 * before the app loads (wallet.mjs's options, e.g. {account}), kept as `page.wallet`; `connect`:
 * then press the page's connect button (true: it must be there; 'if-shown').
 */
export async function memberPage(
  browser,
  server,
  route,
  {
    account = DEMO_USER,
    fresh = false,
    language,
    viewport = { width: 1280, height: 900 },
    phone = false,
    clipboard = false,
    wallet,
    connect = false,
  } = {},
) {
  const storage = account ? await server.storageFor(account, { fresh }) : {};
  if (language) storage.language = language;
  const page = await openPage(browser, server.url, { storage, cookies: consent, viewport, phone });
  if (clipboard) await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page.wallet = wallet ? await injectWallet(page, server.anvil, wallet) : null;
  await page.goto(route);
  await settled(page);
  if (connect) {
    const button = page.getByRole('button', { name: locale(language ?? 'en')['wallet-connect'] });
    if (connect === true || (await button.isVisible().catch(() => false))) {
      await button.click();
      await button.waitFor({ state: 'detached' });
    }
  }
  return page;
}

/**
 * Signs `email` in through the sign-in page as a person does, up to the mailed code typed in.
 * `atCode`: what to check on the code's page before the code is typed.
 */
export async function signIn(page, server, { email, password }, { atCode } = {}) {
  await page.goto('/login');
  await settled(page);
  await page.fill('#field-email', email);
  await page.fill('#field-password', password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/verifycode');
  await atCode?.();
  await page.fill('#field-code', server.codeFor(email));
}

/** Once the page shows its heading, rendered by the app (not the page the server sent rendered). */
export const settled = (page) => page.waitForSelector('#root:not([data-prerendered]) h1', { timeout: 15_000 });

/**
 * Moves the app to `route` as a person does from its menu (the history changes, no page load),
 * once the new page's heading shows. A page load costs about 1.3 s of CPU (the bundle and the
 * core again); where a test is not about the first load, this is the same page for less.
 */
export async function moveInside(page, route) {
  const before = await page.evaluate(() => {
    const h1 = document.querySelector('#root h1');
    h1?.setAttribute('data-left', '');
    return h1?.textContent ?? '';
  });
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, route);
  await page.waitForFunction(
    ([to, was]) => {
      const h1 = document.querySelector('#root h1');
      return window.location.pathname === to && h1 && (!h1.hasAttribute('data-left') || h1.textContent !== was);
    },
    [route, before],
    { timeout: 15_000 },
  );
}

/** An unsigned token: the route guards decode it without verifying, as docs/product/api.md#session-token describes. */
export function token({ role = '1', id = '7', expSeconds = Math.floor(Date.now() / 1000) + 3600 } = {}) {
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ id, role, exp: expSeconds })}.c2lnbmF0dXJl`;
}

export const adminInfo = JSON.stringify({ names: 'Ada', lastnames: 'Lovelace', roleAdmin: '1001' });
export const consent = [{ name: 'cookieConsent', value: 'accepted' }];

export const path = (page) => new URL(page.url()).pathname;

/** The date fields (start, end) as a person sees them: text in the page's language. */
export const dateFields = (page) => page.locator('.date-field input[type=text]');
/** A YYYY-MM-DD date as `language` writes it: 12/31/2026 in en, 31/12/2026 in es and pt. */
export const localDay = (iso, language = 'en') => {
  if (!iso) return '';
  const [y, m, d] = iso.split('-');
  return language === 'en' ? `${m}/${d}/${y}` : `${d}/${m}/${y}`;
};
/** Types a YYYY-MM-DD date into a date field as a person of `language` would. */
export const typeDate = (field, iso, language = 'en') => field.fill(localDay(iso, language));

// With ?lng=cimode i18next renders each key instead of its text. Every visible text must then be
// a key of en.json, or not words at all (numbers, symbols, the token symbol), or data marked
// translate="no".
const NOT_WORDS = /^[\s\d\W]*$/;
const DATA = new Set(['LVLX']);

export async function untranslated(page) {
  const texts = await page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.trim();
      const style = n.parentElement && getComputedStyle(n.parentElement);
      // The phone picker's country names are data, translated by the phone library itself.
      if (n.parentElement.closest('.PhoneInputCountry')) continue;
      // People's data (names, initials) is marked translate="no", as HTML intends.
      if (n.parentElement.closest('[translate=no]')) continue;
      // Admins' texts (content blocks) are data, in the language they were written in.
      if (n.parentElement.closest('[data-block]')) continue;
      if (
        text &&
        style &&
        style.display !== 'none' &&
        style.visibility !== 'hidden' &&
        n.parentElement.tagName !== 'SCRIPT' &&
        n.parentElement.tagName !== 'STYLE'
      )
        out.push(text);
    }
    for (const el of document.querySelectorAll('[aria-label],[title],[placeholder],[alt]')) {
      // Data (a full email in a copy button's title) is marked translate="no" too.
      if (el.closest('.PhoneInputCountry') || el.closest('[translate=no]')) continue;
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = el.getAttribute(attr);
        if (v) out.push(v.trim());
      }
    }
    return out;
  });
  return texts.filter((t) => !(t in en) && !NOT_WORDS.test(t) && !DATA.has(t));
}
