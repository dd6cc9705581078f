// Starts the real server (its own temp data folder, a free loopback port) and headless Chromium
// for a browser test file, and gives the tests small helpers.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const root = new URL('../../../', import.meta.url).pathname;
export const en = JSON.parse(readFileSync(join(root, 'locales/en/en.json'), 'utf8'));

export async function startServer() {
  const dataDir = mkdtempSync(join(tmpdir(), 'lvlx-browser-'));
  const binary = join(root, process.env.TEST_SERVER_BINARY ?? 'target/debug/lvlx');
  const child = spawn(binary, ['serve'], {
    cwd: root,
    env: { ...process.env, LVLX_BIND: '127.0.0.1:0', LVLX_DATA_DIR: dataDir, LVLX_LOG: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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
  return {
    url,
    stop() {
      child.kill('SIGINT');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** A page whose uncaught errors fail the test, starting from stored values set before any script. */
export async function openPage(browser, baseUrl, { storage = {}, cookies = [], viewport = { width: 1280, height: 800 } } = {}) {
  const context = await browser.newContext({ viewport, baseURL: baseUrl });
  if (cookies.length) await context.addCookies(cookies.map((c) => ({ url: baseUrl, ...c })));
  await context.addInitScript((values) => {
    // Only once per context: a later navigation must see what the app did to storage.
    if (!sessionStorage.getItem('__seeded')) {
      for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v);
      sessionStorage.setItem('__seeded', '1');
    }
  }, storage);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e));
  return page;
}

/** Waits until the app has rendered a heading (the boot spinner is gone). */
export const settled = (page) => page.waitForSelector('h1', { timeout: 15_000 });

/** An unsigned token: the route guards decode it without verifying, as SPEC §3 describes. */
export function token({ role = '1', id = '7', expSeconds = Math.floor(Date.now() / 1000) + 3600 } = {}) {
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ id, role, exp: expSeconds })}.c2lnbmF0dXJl`;
}

export const adminInfo = JSON.stringify({ names: 'Ada', lastnames: 'Lovelace', roleAdmin: '1001' });
export const consent = [{ name: 'cookieConsent', value: 'accepted' }];

export const path = (page) => new URL(page.url()).pathname;
