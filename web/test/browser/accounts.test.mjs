// The account flows as a person does them, in headless Chromium against the real server: the
// codes come from the server's outbox, as they would from a mailbox.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  consent,
  DEMO_ADMIN,
  DEMO_USER,
  launchBrowser,
  openPage,
  path,
  settled,
  startServer,
  en,
  signIn,
} from './harness.mjs';
import { announced, tabTo } from './keyboard.mjs';

let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

/** Signs in through the pages; the code's page is reached with the step kept in storage. */
const signInHere = (page, account) =>
  signIn(page, server, account, {
    atCode: async () => assert.equal(await page.evaluate(() => localStorage.getItem('verifyCode')), 'true'),
  });

const tokenWorks = (page, token) =>
  page.evaluate(
    async (t) => (await fetch('/api/v1/tokenVerify', { headers: { Authorization: `Bearer ${t}` } })).status,
    token,
  );

test('register through a referral link by keyboard alone: code from the mail, then the dashboard', async () => {
  const page = await openPage(browser, server.url, {
    cookies: consent,
    storage: { userCodeLink: server.userReferral },
  });
  await page.goto(`/register/referred/${server.userReferral}`);
  await settled(page);
  // Who invited, by first name and initial, not the 32-character code.
  const invited = page.locator('.card > p.muted').first();
  await invited.filter({ hasText: en['register-invited-by'].replace('{{name}}', 'Dana D.') }).waitFor();
  const fields = [
    ['names', 'Maria José'],
    ['lastnames', 'Conceição Souza'],
    ['email', 'maria@example.com'],
    ['emailC', 'maria@example.com'],
  ];
  for (const [field, value] of fields) {
    await tabTo(page, page.locator(`#field-${field}`));
    await page.keyboard.type(value);
  }
  // The country by typing its name on the country list, then the number after its +55. A list's
  // type-ahead starts a new search after a pause between keys, which a loaded machine can make:
  // the name is typed again (after such a pause) until the list holds Brazil.
  const country = page.locator('.PhoneInputCountrySelect');
  await tabTo(page, country, { ring: page.locator('.PhoneInputCountry') });
  for (let tries = 0; (await country.inputValue()) !== 'BR'; tries++) {
    assert.ok(tries < 3, `the country list took "Brazil" as ${await country.inputValue()}`);
    if (tries > 0) await page.waitForTimeout(1500);
    await page.keyboard.type('Brazil');
  }
  await tabTo(page, page.locator('#field-cel'));
  await page.keyboard.press('End');
  await page.keyboard.type('11 91234 5678');
  await tabTo(page, page.locator('button[type=submit]'));
  await page.keyboard.press('Enter');
  // The next step takes the focus and says which step it is (if not, what the form said instead).
  await announced(page, en['register-step'].replace('{{step}}', 2).replace('{{total}}', 3)).catch(async (e) => {
    throw new Error(`${e.message}\nthe form: ${await page.locator('main').innerText()}`);
  });
  await page.waitForFunction(() => document.activeElement?.id === 'field-password');
  // Two different (and weak) passwords: the confirmation says they differ, not the strength rule
  // a second time.
  await page.fill('#field-password', 'abc');
  await page.fill('#field-passwordC', 'abd');
  await page.click('button[type=submit]');
  assert.equal(await page.locator('#field-passwordC-error').innerText(), en['validations-pass']);
  assert.equal(await page.locator('#field-password-error').innerText(), en['validations-pass-msg']);
  await page.fill('#field-passwordC', '');
  await page.fill('#field-password', '');
  await page.focus('#field-password');
  await page.keyboard.type('Passw0rd!');
  await tabTo(page, page.locator('#field-passwordC'));
  await page.keyboard.type('Passw0rd!');
  await tabTo(page, page.locator('button[type=submit]'));
  await page.keyboard.press('Enter');
  await announced(page, en['register-step'].replace('{{step}}', 3).replace('{{total}}', 3));
  await page.waitForFunction(() => document.activeElement?.id === 'field-code');
  assert.equal(await page.getAttribute('.step', 'data-step'), '3');
  // The code step names the address and how long the code lasts, offers it again after a wait,
  // and leads back to the details, every field kept (a mistyped address is fixed there).
  assert.ok(
    await page.getByText(en['verify-hint-email'].replace('{{email}}', 'maria@example.com')).isVisible(),
    'the code step names the address',
  );
  assert.ok(await page.getByRole('button', { name: /^Send again in \d+ s$/ }).isDisabled());
  await page.getByTestId('register-change').click();
  await announced(page, en['register-step'].replace('{{step}}', 1).replace('{{total}}', 3));
  assert.equal(await page.inputValue('#field-email'), 'maria@example.com');
  await page.click('button[type=submit]');
  await announced(page, en['register-step'].replace('{{step}}', 2).replace('{{total}}', 3));
  await page.click('button[type=submit]');
  await announced(page, en['register-step'].replace('{{step}}', 3).replace('{{total}}', 3));
  await page.focus('#field-code');
  await page.keyboard.type(server.codeFor('maria@example.com'));
  await page.waitForURL('**/dashboard');
  const stored = await page.evaluate(() => ({
    user: JSON.parse(localStorage.getItem('userInfo')),
    link: localStorage.getItem('userCodeLink'),
  }));
  assert.equal(stored.user.names, 'Maria José');
  assert.equal(stored.link, null, 'registering clears userCodeLink');
  assert.deepEqual(page.errors, []);
});

test('sign in by keyboard alone with the mailed code, refresh, then sign out: the token is dead', async () => {
  const page = await openPage(browser, server.url, { cookies: consent });
  await page.goto('/login');
  await settled(page);
  await tabTo(page, page.locator('#field-email'));
  await page.keyboard.type(DEMO_USER.email);
  await tabTo(page, page.locator('#field-password'));
  await page.keyboard.type(DEMO_USER.password);
  await tabTo(page, page.locator('button[type=submit]'));
  await page.keyboard.press('Enter');
  await page.waitForURL('**/verifycode');
  await page.waitForFunction(() => document.activeElement?.id === 'field-code');
  await page.keyboard.type(server.codeFor(DEMO_USER.email));
  await page.waitForURL('**/dashboard');
  const token = await page.evaluate(() => localStorage.getItem('sessionToken'));
  assert.equal(await tokenWorks(page, token), 200);
  await page.getByRole('button', { name: 'Exit' }).click();
  await page.getByRole('dialog', { name: 'Sign out?' }).getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');
  await page.getByTestId('signed-out').filter({ hasText: 'You have signed out.' }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('sessionToken')), null);
  assert.equal(await page.evaluate(() => localStorage.getItem('loginStep')), '1');
  assert.equal(await tokenWorks(page, token), 401);
});

// The rendered sign-in page can be sent before the app has arrived (web/src/accounts/early.js):
// here the app's code is held back until the code step, which the app then shows.
const APP_CODE = /\/main\.[0-9a-f]+\.js$/;
async function holdApp(page) {
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  await page.route(APP_CODE, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('sign in from the rendered page by keyboard before the app has arrived; the app takes over at the code step', async () => {
  const page = await openPage(browser, server.url, { cookies: consent });
  const release = await holdApp(page);
  await page.goto('/login', { waitUntil: 'commit' });
  // The small core has arrived: the button acts while the app is still held back.
  await page.locator('[data-prerendered=login] button[type=submit]:enabled').waitFor();
  await tabTo(page, page.locator('#field-email'));
  await page.keyboard.type(DEMO_USER.email);
  await tabTo(page, page.locator('#field-password'));
  await page.keyboard.type(DEMO_USER.password);
  await page.keyboard.press('Enter');
  // (The page has not finished loading: the app's code is still held back.)
  await page.waitForURL('**/verifycode', { waitUntil: 'commit' });
  // The state the app's own sign-in leaves, before any of the app has run.
  const stored = await page.evaluate(() =>
    ['verifyCode', 'loginStep', 'userEmail'].map((k) => localStorage.getItem(k)),
  );
  assert.deepEqual(stored, ['true', '2', DEMO_USER.email]);
  assert.equal(await page.locator('[role=status]').innerText(), en['spinner-label']);
  release();
  await page.waitForFunction(() => document.activeElement?.id === 'field-code');
  await page.locator('form .muted', { hasText: DEMO_USER.email }).waitFor();
  await page.keyboard.type(server.codeFor(DEMO_USER.email));
  await page.waitForURL('**/dashboard');
  await settled(page);
  assert.deepEqual(page.errors, []);
});

test('a sign-in the server refuses before the app has arrived says why in the page’s language; the app keeps the message and what was typed', async () => {
  const page = await openPage(browser, server.url, { cookies: consent, locale: 'es-ES' });
  const warnings = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  const release = await holdApp(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await page.locator('[data-prerendered=login] button[type=submit]:enabled').waitFor();
  await page.fill('#field-email', DEMO_USER.email);
  await page.fill('#field-password', 'Wrong#2026x');
  await page.click('button[type=submit]');
  const es = JSON.parse(await (await fetch(`${server.url}/locales/es/es.json`)).text());
  const alert = page.locator('[data-prerendered=login] [role=alert]');
  await alert.waitFor();
  assert.equal(await alert.innerText(), es['error-credentials']);
  assert.equal(path(page), '/login');
  // No field check of its own: an email the core refuses is the server's to say.
  await page.fill('#field-email', 'not-an-email');
  await page.click('button[type=submit]');
  await page.locator('[data-prerendered=login] [role=alert]', { hasText: es['validations-email-msg'] }).waitFor();
  await page.fill('#field-email', DEMO_USER.email);
  release();
  await page.locator('#root:not([data-prerendered]) button[type=submit]:enabled').waitFor();
  // The app shows the last refusal as its own sign-in does, over the same elements and values.
  await page.locator('.Toastify__toast--error', { hasText: es['validations-email-msg'] }).waitFor();
  assert.equal(await page.locator('[role=alert]:not(.Toastify__toast)').count(), 0);
  assert.equal(await page.inputValue('#field-email'), DEMO_USER.email);
  assert.equal(await page.inputValue('#field-password'), 'Wrong#2026x');
  assert.deepEqual(
    warnings.filter((w) => w.includes('rendered again')),
    [],
    'hydrated, not rendered again',
  );
  await page.fill('#field-password', DEMO_USER.password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/verifycode');
  assert.deepEqual(page.errors, []);
});

test('an admin signs in to the admin area with names in the menu', async () => {
  const page = await openPage(browser, server.url, { cookies: consent });
  await signInHere(page, DEMO_ADMIN);
  await page.waitForURL('**/admin/tables/users');
  assert.match(await page.textContent('[data-testid=admin-names]'), /Ada Admin/);
});

test('the code page names the address, submits at the fourth digit, says a wrong code beside the field, sends again; its error does not outlive it', async () => {
  const page = await openPage(browser, server.url, { cookies: consent });
  await page.clock.install();
  await page.goto('/login');
  await settled(page);
  await page.fill('#field-email', DEMO_ADMIN.email);
  await page.fill('#field-password', DEMO_ADMIN.password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/verifycode');
  await page.waitForSelector('#field-code');
  // The hint names the address the code went to.
  await page.locator('form .muted', { hasText: DEMO_ADMIN.email }).waitFor();
  // Sending again waits 30 s, then gives a new code; the first one stops working.
  const resend = page.getByRole('button', { name: en['verify-resend'] });
  assert.ok(await page.getByRole('button', { name: /\d+ s$/ }).isDisabled());
  const first = server.codeFor(DEMO_ADMIN.email);
  await page.clock.runFor(31_000);
  await resend.click();
  await page.locator('.Toastify__toast--success', { hasText: en['verify-resent'] }).waitFor();
  let right = server.codeFor(DEMO_ADMIN.email);
  for (let i = 0; right === first && i < 20; i += 1) right = server.codeFor(DEMO_ADMIN.email);
  // The old code, typed to its fourth digit, is sent at once and refused beside the field.
  // The toast uses the app's font.
  const fonts = await page.evaluate(() => [
    getComputedStyle(document.body).fontFamily,
    getComputedStyle(document.querySelector('.Toastify__toast')).fontFamily,
  ]);
  assert.equal(fonts[1], fonts[0]);
  await page.fill('#field-code', first === right ? (right === '1234' ? '4321' : '1234') : first);
  const fieldError = page.locator('#field-code-error');
  await fieldError.waitFor();
  assert.equal(await fieldError.innerText(), en['error-code']);
  // Said once: beside the field, not in a toast as well.
  await page.waitForTimeout(500);
  assert.equal(await page.locator('.Toastify__toast--error').count(), 0, 'no toast repeating it');
  assert.equal(path(page), '/verifycode');
  // Then the right code, four digits and no click: the stale error does not follow onto the next page.
  await page.fill('#field-code', right);
  await page.waitForURL('**/admin/tables/users');
  await page.locator('h1').waitFor();
  assert.equal(await page.locator('.Toastify__toast--error, .field-error:not(:empty)').count(), 0);
});

test('recover, reset: the old session ends and only the new password works', async () => {
  const email = 'rita@example.com';
  // A fresh account through the API, so other tests keep the demo passwords.
  const setup = await openPage(browser, server.url, { cookies: consent });
  await setup.goto(`/register/referred/${server.userReferral}`);
  await settled(setup);
  for (const [f, v] of [
    ['names', 'Rita Lopes'],
    ['lastnames', 'Moura Silva'],
    ['email', email],
    ['emailC', email],
    ['cel', '+351 912 345 678'],
  ])
    await setup.fill(`#field-${f}`, v);
  await setup.click('button[type=submit]');
  await setup.fill('#field-password', 'Old#Passw0rd');
  await setup.fill('#field-passwordC', 'Old#Passw0rd');
  await setup.click('button[type=submit]');
  await setup.waitForSelector('#field-code');
  await setup.fill('#field-code', server.codeFor(email));
  await setup.waitForURL('**/dashboard');
  const oldToken = await setup.evaluate(() => localStorage.getItem('sessionToken'));

  const page = await openPage(browser, server.url, { cookies: consent });
  await page.goto('/recover');
  await settled(page);
  await page.fill('#field-email', email);
  await page.click('button[type=submit]');
  await page.waitForSelector('#field-code');
  await page.fill('#field-code', server.codeFor(email));
  await page.waitForURL('**/reset');
  await page.fill('#field-password', 'New#Passw0rd');
  await page.fill('#field-passwordC', 'New#Passw0rd');
  await page.click('button[type=submit]');
  await page.waitForURL('**/login');
  assert.equal(await tokenWorks(page, oldToken), 401, 'the old session is dead');
  // The old session's page notices at its next refresh.
  await setup.reload();
  await setup.waitForURL('**/login');

  await page.fill('#field-email', email);
  await page.fill('#field-password', 'Old#Passw0rd');
  await page.click('button[type=submit]');
  await page.locator('.Toastify__toast--error').waitFor();
  await signInHere(page, { email, password: 'New#Passw0rd' });
  await page.waitForURL('**/dashboard');
});

for (const [lng, required, names] of [
  ['es', 'Este campo es obligatorio.', 'Usa de 3 a 40 letras y espacios solamente.'],
  ['pt', 'Este campo é obrigatório.', 'Use de 3 a 40 letras e espaços apenas.'],
]) {
  test(`the registration form speaks ${lng}`, async () => {
    const page = await openPage(browser, server.url, { cookies: consent, storage: { language: lng } });
    await page.goto(`/register/referred/${server.userReferral}`);
    await settled(page);
    await page.fill('#field-names', 'J0');
    await page.click('button[type=submit]');
    await page.locator('.field-error:not(:empty)').nth(1).waitFor();
    const errors = await page.locator('.field-error:not(:empty)').allTextContents();
    assert.equal(errors[0], names);
    assert.ok(errors.includes(required));
  });
}

test('avatar: pick, crop, save; the new image shows and stays after a reload', async () => {
  const page = await openPage(browser, server.url, { cookies: consent, storage: await server.storageFor(DEMO_USER) });
  await page.goto('/dashboard');
  await settled(page);
  // A 200×150 JPEG made by the browser itself.
  const jpeg = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 200;
    c.height = 150;
    const ctx = c.getContext('2d');
    ctx.fillStyle = '#22d3ee';
    ctx.fillRect(0, 0, 200, 150);
    ctx.fillStyle = '#483d8b';
    ctx.fillRect(50, 25, 100, 100);
    return c.toDataURL('image/jpeg', 0.9).split(',')[1];
  });
  await page.getByRole('button', { name: 'Profile picture' }).click();
  const dialog = page.getByRole('dialog', { name: 'Profile picture' });
  await dialog.waitFor();
  await page.setInputFiles('[data-testid=avatar-file]', {
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hello'),
  });
  await page.locator('.Toastify__toast--error', { hasText: 'Only JPEG or PNG images.' }).waitFor();
  // An image under 60 × 60 pixels cannot give a crop of radius 30.
  const tiny = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 40;
    c.height = 40;
    return c.toDataURL('image/png').split(',')[1];
  });
  await page.setInputFiles('[data-testid=avatar-file]', {
    name: 'tiny.png',
    mimeType: 'image/png',
    buffer: Buffer.from(tiny, 'base64'),
  });
  await page
    .locator('.Toastify__toast--error', { hasText: en['avatar-too-small'].replaceAll('{{pixels}}', '60') })
    .waitFor();
  await page.setInputFiles('[data-testid=avatar-file]', {
    name: 'me.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from(jpeg, 'base64'),
  });
  await page.locator('.reactEasyCrop_Container').waitFor();
  // The zoom stops where the crop is 60 of the image's pixels wide (150 / 60): never upscaled.
  await page.waitForFunction(() => document.querySelector('.crop-controls input[type=range]').max === '2.5');
  const box = await page.locator('.crop-area').boundingBox();
  assert.deepEqual([Math.round(box.width), Math.round(box.height)], [390, 295]);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.locator('.Toastify__toast--success', { hasText: 'Your picture was saved.' }).waitFor();
  const img = page.locator('[data-testid=avatar-image]');
  await img.waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=avatar-image]').naturalWidth > 0);
  assert.ok((await img.evaluate((el) => el.naturalWidth)) >= 60, 'at least twice the minimum crop radius');
  await page.reload();
  await settled(page);
  await page.waitForFunction(() => document.querySelector('[data-testid=avatar-image]')?.naturalWidth > 0);
  assert.deepEqual(page.errors, []);
});
