// Login latency under 20 concurrent sign-ins (POST /api/v1/login: captcha check, argon2id
// verify, code creation and mail to the outbox), against the release server on loopback.
// Baseline in the same run: GET /api/v1/health under the same concurrency (the server without
// password work), and the argon2id floor (one verify, measured alone).
// Run: npm run bench:login   (after scripts/build.sh --release)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { solveCaptcha } from '../web/src/core/index.js';

const root = new URL('../', import.meta.url).pathname;
const binary = join(root, process.env.BENCH_SERVER_BINARY ?? 'target/release/lvlx');
const CONCURRENCY = 20;
const ROUNDS = 5; // code sends are limited to 5 an hour per account
const dataDir = mkdtempSync(join(tmpdir(), 'lvlx-bench-'));
const env = {
  ...process.env,
  LVLX_BIND: '127.0.0.1:0',
  LVLX_DATA_DIR: dataDir,
  LVLX_LOG: 'warn',
  LVLX_CAPTCHA_DIFFICULTY: '1',
  LVLX_AUTH_PER_MINUTE: '100000',
};

const accounts = Array.from({ length: CONCURRENCY }, (_, i) => ({
  email: `bench${i}@example.com`,
  password: 'Bench#Pass1',
}));
for (const [i, a] of accounts.entries()) {
  execFileSync(
    binary,
    ['admin', 'create', '--email', a.email, '--names', 'Bench', '--lastnames', `User ${'abcdefghijklmnopqrst'[i]}`],
    {
      env: { ...env, LVLX_ADMIN_PASSWORD: a.password },
      stdio: 'ignore',
    },
  );
}

const child = spawn(binary, ['serve'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve) => {
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/serving at (http:\/\/\S+?)\/?\s/);
    if (m) resolve(m[1]);
  });
});

async function timed(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function captcha() {
  const { challenge, difficulty } = await (await fetch(`${url}/api/v1/captcha`)).json();
  return { challenge, solution: solveCaptcha(challenge, difficulty) };
}

async function login(a) {
  const body = JSON.stringify({ email: a.email, password: a.password, captcha: await captcha() });
  return timed(async () => {
    const res = await fetch(`${url}/api/v1/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    if (res.status !== 200) throw new Error(`login ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  });
}

const health = () => timed(async () => (await fetch(`${url}/api/v1/health`)).arrayBuffer());
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x) => `${x.toFixed(1)} ms`;

try {
  await health(); // warm up
  const single = [];
  for (let i = 0; i < 1; i += 1) single.push(await login(accounts[0]));
  const logins = [];
  const healths = [];
  for (let r = 0; r < ROUNDS - 1; r += 1) {
    logins.push(...(await Promise.all(accounts.map(login))));
    healths.push(...(await Promise.all(accounts.map(health))));
  }
  // The last allowed code of account 0 was spent alone above; the others take a fifth round.
  logins.push(...(await Promise.all(accounts.slice(1).map(login))));
  console.log(
    `\nLogin latency, ${CONCURRENCY} concurrent, ${logins.length} logins, ${(await import('node:os')).cpus().length} cores`,
  );
  console.log('| measure | p50 | p99 |');
  console.log('| --- | --- | --- |');
  console.log(`| POST login, ${CONCURRENCY} at once | ${ms(pct(logins, 50))} | ${ms(pct(logins, 99))} |`);
  console.log(`| baseline: GET health, ${CONCURRENCY} at once | ${ms(pct(healths, 50))} | ${ms(pct(healths, 99))} |`);
  console.log(`| baseline: one login alone (argon2id floor) | ${ms(single[0])} | |`);
  const cores = (await import('node:os')).cpus().length;
  console.log(
    `\nExpected from the floor: ${CONCURRENCY} hashes on ${cores} cores ≈ ${ms((CONCURRENCY / cores) * single[0])} for the last of a burst.`,
  );
} finally {
  child.kill('SIGINT');
  rmSync(dataDir, { recursive: true, force: true });
}
