// Makes the FAQ guide's screenshots from this product itself: starts the server on
// its own anvil chain, signs the demo member in with a linked wallet, and photographs in each
// language the dashboard's wallet box, the token page with an amount typed, and My actives
// after a real purchase. Writes web/guides/{lng}/buy-{1,2,3}.jpg (JPEG, quality 80), which the
// server measures and serves. Run it after a UI change: `npm run guide-screenshots`.
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { consent, DEMO_USER, launchBrowser, openPage, settled, startServer } from '../web/test/browser/harness.mjs';
import { injectWallet } from '../web/test/browser/wallet.mjs';
import { checksumAddress, languages } from '../web/src/core/index.js';

const OUT = new URL('../web/guides/', import.meta.url).pathname;
const VIEWPORT = { width: 1100, height: 760 };
const shoot = async (locator, file) => {
  await locator.screenshot({ path: file, type: 'jpeg', quality: 80, animations: 'disabled' });
  console.log(`${file} (${statSync(file).size} bytes)`);
};

const server = await startServer({ chain: true });
const browser = await launchBrowser();
try {
  const accounts = (await server.anvil.rpc('eth_accounts')).result.map(checksumAddress);
  server.giveWallet(DEMO_USER.email, accounts[1]);
  const storage = await server.storageFor(DEMO_USER, { fresh: true });
  let bought = false;
  for (const language of languages()) {
    mkdirSync(join(OUT, language), { recursive: true });
    const page = await openPage(browser, server.url, {
      storage: { ...storage, language },
      cookies: consent,
      viewport: VIEWPORT,
    });
    const wallet = await injectWallet(page, server.anvil, { account: accounts[1] });
    // Connected on Polygon, as a member's wallet is once set up.
    wallet.state.connected = true;
    wallet.state.known.add('0x89');
    wallet.state.chainId = '0x89';
    await page.goto('/dashboard');
    await settled(page);
    const card = page.getByTestId('wallet-card');
    await card.locator('.wallet-actions').waitFor();
    await page.waitForTimeout(300);
    await shoot(card, join(OUT, language, 'buy-1.jpg'));

    await page.goto(`/token${server.settings.product}`);
    await settled(page);
    await page.getByTestId('buy-price').waitFor({ timeout: 20_000 });
    await page.locator('#buy-usdt').fill('25');
    await page.getByTestId('buy-summary').waitFor();
    await shoot(page.locator('.token-page'), join(OUT, language, 'buy-2.jpg'));
    if (!bought) {
      await page.locator('.buy-form button[type="submit"]').click();
      await page.locator('[data-testid="tx-status"][data-state="confirmed"]').waitFor({ timeout: 60_000 });
      bought = true;
    }

    await page.goto('/myActives');
    await settled(page);
    await page.locator('[data-testid="actives-history"] .rdt_TableRow').first().waitFor({ timeout: 20_000 });
    await shoot(page.locator('.page'), join(OUT, language, 'buy-3.jpg'));
    await page.context().close();
  }
} finally {
  await browser.close();
  server.stop();
}
