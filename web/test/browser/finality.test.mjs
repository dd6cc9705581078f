// Pending and final, as members and admins see them, on a chain where an event is final three
// blocks under the head (`chain deploy --confirmations 3`): a purchase and an LVLX stake sent
// straight to anvil show at once, marked pending on My assets, Staking (in Spanish at phone
// width) and the admin's ICO and LVLX staking tables; three blocks later the marks go, live, without a reload.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { join } from 'node:path';
import { adminPage, DEMO_USER, en, launchBrowser, startServer, SHOTS, es, memberPage } from './harness.mjs';
import { calldata, checksumAddress } from '../../src/core/index.js';
const USDT = 10n ** 6n;
const LVLX = 10n ** 18n;
const ZERO = '0x0000000000000000000000000000000000000000';

let server;
let browser;
let member;
before(async () => {
  server = await startServer({ chain: true, confirmations: 3 });
  browser = await launchBrowser();
  [, member] = (await server.anvil.rpc('eth_accounts')).result.map(checksumAddress);
  server.giveWallet(DEMO_USER.email, member);
});
after(async () => {
  await browser?.close();
  server?.stop();
});

async function send(to, contract, fn, args) {
  const { result, error } = await server.anvil.rpc('eth_sendTransaction', [
    { from: member, to, data: calldata(contract, fn, args) },
  ]);
  assert.ok(result, `${fn}: ${JSON.stringify(error)}`);
}

/** The demo member's pages in es on a phone. */
const PHONE_ES = { language: 'es', viewport: { width: 390, height: 844 } };

test('a purchase and a stake are pending at once and final three blocks later, for the member and the admin', async () => {
  const chain = server.settings.chain;
  const usdt = (10n * USDT).toString();
  await send(chain.usdt, 'MockUSDT', 'approve', [chain.icoSale, usdt]);
  await send(chain.icoSale, 'IcoSale', 'buy', [usdt, '0', ZERO]);
  const staked = (50n * LVLX).toString();
  await send(chain.lvlx, 'LVLX', 'approve', [chain.lvlxStaking, staked]);
  await send(chain.lvlxStaking, 'LvlxStaking', 'stake', ['1', staked, '0', String(2n ** 64n)]);

  const actives = await memberPage(browser, server, '/myActives', PHONE_ES);
  const purchase = actives.getByTestId('chain-pending').first();
  await purchase.waitFor({ timeout: 15_000 });
  assert.equal(await purchase.innerText(), es['chain-pending']);
  await actives.getByText(es['chain-pending-help']).waitFor();
  await actives.screenshot({ path: join(SHOTS, 'finality-myactives-es-390.png'), fullPage: true });

  const staking = await memberPage(browser, server, '/staking', PHONE_ES);
  const positions = staking.getByTestId('lvlx-positions');
  await positions.getByTestId('chain-pending').waitFor({ timeout: 15_000 });
  await positions.getByText(es['chain-pending-stake-help']).waitFor();
  await staking.screenshot({ path: join(SHOTS, 'finality-staking-es-390.png'), fullPage: true });

  const admin = await adminPage(browser, server, '/admin/tables/ICO');
  await admin.getByTestId('ico-general').waitFor();
  await admin.getByTestId('chain-pending').first().waitFor({ timeout: 15_000 });
  assert.match(await admin.getByTestId('indexer-standing').innerText(), /· 1 purchases pending ·/);
  const stakes = await adminPage(browser, server, '/admin/tables/LVLXStaking');
  const entry = stakes.getByTestId('chain-pending');
  await entry.waitFor({ timeout: 15_000 });
  assert.equal(await entry.getAttribute('title'), en['chain-pending-entry-help']);

  // Three more blocks: everything above is final; each page drops its marks on the push.
  await server.anvil.rpc('anvil_mine', ['0x3']);
  for (const page of [actives, staking, admin, stakes]) {
    await page.getByTestId('chain-pending').first().waitFor({ state: 'detached', timeout: 15_000 });
  }
  await actives.getByText(es['chain-final']).first().waitFor();
  assert.equal(await actives.getByText(es['chain-pending-help']).count(), 0);
  assert.equal(await positions.getByText(es['chain-pending-stake-help']).count(), 0);
  assert.match(await admin.getByTestId('indexer-standing').innerText(), /· 0 purchases pending ·/);
  assert.ok(en['chain-pending'] !== es['chain-pending'], 'the Spanish mark is Spanish');
  for (const page of [actives, staking, admin, stakes]) await page.context().close();
});
