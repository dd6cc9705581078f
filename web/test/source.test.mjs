// Checks on the source tree: translations complete and used correctly; the wasm import rule.
// en is the source of truth: es and pt must have exactly its keys, real translations, the same
// {{placeholders}}; and every key the code uses must exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const load = (lng) => JSON.parse(readFileSync(join(root, 'locales', lng, `${lng}.json`), 'utf8'));
const en = load('en');
const placeholders = (s) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

for (const lng of ['es', 'pt']) {
  const other = load(lng);
  test(`${lng} has exactly the keys of en`, () => {
    assert.deepEqual(Object.keys(other).sort(), Object.keys(en).sort());
  });
  test(`${lng} keeps every placeholder and is a translation, not a copy`, () => {
    let copies = 0;
    for (const [key, text] of Object.entries(en)) {
      assert.deepEqual(placeholders(other[key]), placeholders(text), `${lng}:${key}`);
      if (other[key] === text && /[a-z]{4}/.test(text.replace(/\{\{\w+\}\}/g, ''))) copies += 1;
    }
    // A few words are the same in all three (Staking, NFTs); whole sentences are not.
    assert.ok(copies / Object.keys(en).length < 0.1, `${lng}: ${copies} entries identical to en`);
  });
}

test('translations are flat strings', () => {
  for (const [key, text] of Object.entries(en)) assert.equal(typeof text, 'string', key);
});

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.(jsx?|mjs)$/.test(name) ? [path] : [];
  });
}

test('every translation key used in web/src exists in en', () => {
  const used = new Set();
  for (const file of [...sources(join(root, 'web/src')), ...sources(join(root, 'web/landing'))]) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bt\(\s*'([^']+)'/g)) used.add(m[1]);
    for (const m of text.matchAll(/i18nKey="([^"]+)"/g)) used.add(m[1]);
  }
  assert.ok(used.size > 20, 'the scan finds the keys');
  const missing = [...used].filter((k) => !(k in en));
  assert.deepEqual(missing, []);
});

test('every server error code and validation key has a translation', () => {
  const rust = ['domain/src/error.rs', 'core-wasm/src/validation.rs']
    .map((f) => readFileSync(join(root, f), 'utf8'))
    .join('\n');
  const codes = new Set([...rust.matchAll(/"((?:error|validations)-[a-z-]+)"/g)].map((m) => m[1]));
  assert.ok(codes.size > 15);
  assert.deepEqual(
    [...codes].filter((c) => !(c in en)),
    [],
  );
});

// The full core for the app; its small build (feature `forms`) for the sign-in page's early sending.
test('only web/src/core imports the WebAssembly packages', () => {
  const importers = sources(join(root, 'web'))
    .filter((f) => !f.includes('/test/') && !f.includes('/dist/') && !/\/pkg(-forms)?\//.test(f))
    .filter((f) => /from\s+'[^']*pkg(-forms)?\/lvlx_/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(importers.map((f) => f.slice(root.length)).sort(), [
    'web/src/core/forms.js',
    'web/src/core/index.js',
  ]);
});

test('every media query width is on the breakpoint scale', async () => {
  const { BREAKPOINTS } = await import('../src/styles/breakpoints.js');
  const allowed = new Set(Object.values(BREAKPOINTS).flatMap((w) => [`min-width: ${w}px`, `max-width: ${w - 1}px`]));
  const sheets = (dir) =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sheets(path);
      return name.endsWith('.css') ? [path] : [];
    });
  const off = [];
  for (const file of [...sheets(join(root, 'web/src')), ...sheets(join(root, 'web/landing'))]) {
    for (const [, query] of readFileSync(file, 'utf8').matchAll(/@media[^{]*\(((?:min|max)-width:\s*\d+px)\)/g))
      if (!allowed.has(query.replace(/\s+/g, ' '))) off.push(`${file.slice(root.length)}: ${query}`);
  }
  assert.deepEqual(off, []);
});

// locales/GLOSSARY.md decides one word per concept; its "Words avoided" table is checked here.
test('no translation uses a word the glossary avoids', () => {
  const glossary = readFileSync(join(root, 'locales', 'GLOSSARY.md'), 'utf8');
  const section = glossary.split('## Words avoided')[1] ?? '';
  const rules = [...section.matchAll(/^\| (en|es|pt) \| `([^`]+)` \| (.+) \|$/gm)].map(([, lng, pattern, use]) => ({
    lng,
    pattern: new RegExp(pattern, 'i'),
    use,
  }));
  assert.ok(rules.length >= 10, `the glossary's table of avoided words is read (${rules.length} rules)`);
  const found = [];
  for (const { lng, pattern, use } of rules)
    for (const [key, text] of Object.entries(load(lng)))
      if (pattern.test(text)) found.push(`${lng} ${key}: "${text}" matches ${pattern} (${use})`);
  assert.deepEqual(found, []);
});

// "Withdrawal" is a position's (its reward or principal taken back); the ledger's entries in another
// coin are cash-outs (locales/GLOSSARY.md): the two once shared one word in every language.
test("the ledger's cash-outs are not named as staking withdrawals", () => {
  const LEDGER = [
    'ico-total-withdraw',
    'ico-total-withdraw-help',
    'ico-usdt-retired',
    'ico-usdt-retired-help',
    'ico-total-transactions-help',
    'ico-total-product-help',
    'users-total-product-help',
    'account-bought',
    'ico-retirement',
    'history-kind-retirement',
  ];
  const words = {
    en: [/withdraw/i, /cash-outs?/i],
    es: [/retir/i, /canjes?/i],
    pt: [/saque|sacad/i, /convers(ão|ões)/i],
  };
  const off = [];
  for (const [lng, [staking, ledger]] of Object.entries(words))
    for (const key of LEDGER) {
      const text = load(lng)[key];
      if (staking.test(text) || !ledger.test(text)) off.push(`${lng} ${key}: "${text}"`);
    }
  assert.deepEqual(off, []);
});
