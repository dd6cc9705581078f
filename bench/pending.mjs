// How soon a purchase reaches the buyer's screen, as pending and then as final, on anvil mining
// a block every 2 s (as Polygon does) with events final 2 blocks under the head, the server's
// indexer polling every second. For each of ROUNDS purchases, from the moment its receipt exists
// (the block is mined), measured from Node on one clock: when the API first lists it (the
// baseline: what the server knows), when My assets shows it marked pending (the live push and
// the page's reload), and when it shows it final.
// Run: npm run bench:pending   (after scripts/build.sh --release; BENCH_SERVER_BINARY picks the binary)
import { consent, DEMO_USER, launchBrowser, openPage, startServer } from '../web/test/browser/harness.mjs';
import { calldata, checksumAddress } from '../web/src/core/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const BLOCK_SECONDS = 2;
const ZERO = '0x0000000000000000000000000000000000000000';
const server = await startServer({
  chain: true,
  confirmations: 2,
  binary: process.env.BENCH_SERVER_BINARY ?? 'target/release/lvlx',
});
const [, buyer] = (await server.anvil.rpc('eth_accounts')).result.map(checksumAddress);
server.giveWallet(DEMO_USER.email, buyer);
const chain = server.settings.chain;
const send = async (to, contract, fn, args) => {
  const { result, error } = await server.anvil.rpc('eth_sendTransaction', [
    { from: buyer, to, data: calldata(contract, fn, args) },
  ]);
  if (!result) throw new Error(`${fn}: ${JSON.stringify(error)}`);
  return result;
};
await send(chain.usdt, 'MockUSDT', 'approve', [chain.icoSale, String(10n ** 12n)]);
// From here the chain mines every 2 s, whatever is waiting.
await server.anvil.rpc('evm_setAutomine', [false]);
await server.anvil.rpc('evm_setIntervalMining', [BLOCK_SECONDS]);

const browser = await launchBrowser();
const page = await openPage(browser, server.url, {
  storage: await server.storageFor(DEMO_USER),
  cookies: consent,
  viewport: { width: 1280, height: 900 },
});
await page.goto('/myActives');
await page.waitForSelector('h1');
const { sessionToken } = await server.storageFor(DEMO_USER);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = async (check) => {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    if (await check()) return performance.now();
    await sleep(20);
  }
  throw new Error('not seen within 60 s');
};
/** The page's row for `hash` shows `pending` (true) or the final mark (false). */
const shown = (hash, pending) =>
  page
    .waitForFunction(
      ([h, p]) => {
        const row = document.querySelector(`[title="${h}"]`)?.closest('.rdt_TableRow, .row-card');
        if (!row) return false;
        return Boolean(row.querySelector('[data-testid="chain-pending"]')) === p;
      },
      [hash, pending],
      { polling: 'raf', timeout: 60_000 },
    )
    .then(() => performance.now());

const rows = [];
try {
  for (let i = 0; i < ROUNDS; i += 1) {
    const hash = await send(chain.icoSale, 'IcoSale', 'buy', [String(1_000_000 + i), '0', ZERO]);
    const pending = shown(hash, true);
    const final = shown(hash, false);
    const api = until(async () => {
      const res = await fetch(`${server.url}/api/v1/wallet/actives`, {
        headers: { Authorization: `Bearer ${sessionToken}` },
      });
      return (await res.json()).entries?.some((e) => e.txHash === hash);
    });
    const mined = await until(
      async () => (await server.anvil.rpc('eth_getTransactionReceipt', [hash])).result !== null,
    );
    rows.push({ api: (await api) - mined, pending: (await pending) - mined, final: (await final) - mined });
  }
} finally {
  await browser.close();
  server.stop();
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => `${(x / 1000).toFixed(2)} s`;
console.log(
  `| after the block (${ROUNDS} purchases, ${BLOCK_SECONDS} s blocks, final 2 blocks under) | median | max |`,
);
console.log('| --- | --- | --- |');
for (const [key, label] of [
  ['api', 'baseline: the API lists it'],
  ['pending', 'My assets shows it, marked pending'],
  ['final', 'My assets shows it final'],
]) {
  const xs = rows.map((r) => Math.max(0, r[key]));
  console.log(`| ${label} | ${fmt(median(xs))} | ${fmt(Math.max(...xs))} |`);
}
