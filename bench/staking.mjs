// The member staking page with 10^3 positions: navigation → the positions table's
// first row on screen, and the page's data call, in headless Chromium against the debug or
// release server on its own anvil chain. Baseline in the same run: the same page with no
// positions. Also the cost of one tick of the live figures (every row's accrual from the core).
// Run: npm run bench:staking   (after scripts/build.sh --release; BENCH_SERVER_BINARY picks the binary)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { consent, DEMO_USER, launchBrowser, openPage, startServer } from '../web/test/browser/harness.mjs';
import { stakingStanding } from '../web/src/core/index.js';

const N = Number(process.env.BENCH_POSITIONS ?? 1000);
const ROUNDS = 5;
const server = await startServer({ chain: true, binary: process.env.BENCH_SERVER_BINARY ?? 'target/release/lvlx' });
// Member pages need a linked wallet (the wallet check).
server.giveWallet(DEMO_USER.email, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
const browser = await launchBrowser();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;

async function measure(ready) {
  const page = await openPage(browser, server.url, {
    storage: await server.storageFor(DEMO_USER),
    cookies: consent,
    viewport: { width: 1280, height: 900 },
  });
  const render = [];
  const call = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const t = performance.now();
    await page.goto('/staking');
    await page.waitForSelector(ready, { timeout: 30_000 });
    render.push(performance.now() - t);
    const { sessionToken } = await server.storageFor(DEMO_USER);
    const c = performance.now();
    await (
      await fetch(`${server.url}/api/v1/staking`, { headers: { Authorization: `Bearer ${sessionToken}` } })
    ).json();
    call.push(performance.now() - c);
  }
  await page.context().close();
  return { render: median(render), call: median(call) };
}

const empty = await measure('[data-testid="lvlx-positions"] .table-empty');

// N positions of the demo member, as the indexer records them.
const script = `
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=10)
user = c.execute("SELECT id FROM users WHERE email = 'demo@lvlx.local'").fetchone()[0]
rows = [("lvlx", i, user, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", 1 + i % 4, str(10**21 + i), str(10**19 + i),
         1_790_000_000_000 + i * 60_000, 1_790_000_000_000 + i * 60_000 + 90 * 86_400_000, "0", f"0xbench{i}", 0) for i in range(1, int(sys.argv[2]) + 1)]
c.executemany("INSERT INTO stake_positions (pool, position, user_id, wallet, kind, amount, reward, start_date, release_date, withdrawn, tx_hash, log_index) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
c.commit()`;
execFileSync('python3', ['-c', script, join(server.dataDir, 'lvlx.sqlite3'), String(N)]);
const full = await measure('[data-testid="lvlx-positions"] .rdt_TableRow');

// One tick: the accrual of every position at one second, through the WebAssembly core.
const positions = Array.from({ length: N }, (_, i) => ({
  reward: String(10n ** 19n + BigInt(i)),
  startDate: 1_790_000_000_000,
  withdrawDate: 1_797_776_000_000,
  withdrawn: '0',
}));
const ticks = [];
for (let i = 0; i < 20; i += 1) {
  const t = performance.now();
  for (const p of positions) stakingStanding(p, 1_793_000_000 + i);
  ticks.push(performance.now() - t);
}

console.log(`member /staking, median of ${ROUNDS} navigations (2 cores, headless Chromium)`);
console.log(`${''.padEnd(46)} ${'first render'.padStart(14)} ${'GET /staking'.padStart(14)}`);
console.log(`${'baseline: no positions'.padEnd(46)} ${ms(empty.render).padStart(14)} ${ms(empty.call).padStart(14)}`);
console.log(`${`${N} positions`.padEnd(46)} ${ms(full.render).padStart(14)} ${ms(full.call).padStart(14)}`);
console.log(`one live tick over ${N} positions (core accrual, wasm): median ${ms(median(ticks))}`);
await browser.close();
server.stop();
