// Runs core-wasm/testdata/*.json against the built WebAssembly package through web/src/core,
// the same module the app imports. core-wasm/tests/vectors.rs runs the same files natively;
// tables.json (admin tables) runs on the Arrow streams core-wasm/tests/tables.rs leaves in
// target/tmp, so `cargo test` must run first (scripts/test.sh does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as core from '../src/core/index.js';

const dir = new URL('../../core-wasm/testdata/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const TABLES = 'tables.json';

test('every vector file is covered', () => {
  assert.deepEqual(files.sort(), [
    'amounts.json',
    'captcha.json',
    'dates.json',
    'display.json',
    'network-chain.json',
    'network-tree.json',
    'network.json',
    'phones.json',
    'session.json',
    'siwe.json',
    'staking.json',
    TABLES,
    'typed.json',
    'validation.json',
  ]);
});

const tables = JSON.parse(readFileSync(new URL(TABLES, dir), 'utf8'));
const stream = (name) => new Uint8Array(readFileSync(new URL(`../../target/tmp/${name}`, import.meta.url)));
const tableCases = {
  ico: {
    load: () => core.loadIcoRows(stream('ico.arrow'), 'LVLX'),
    answer: (a) => a.totals,
    key: 'totals',
    row: (r) => [r.n, r.createdAt, r.email],
    want: (rows, [n, i]) => [n, rows[i].createdAt, rows[i].email],
  },
  users: {
    load: () => core.loadUserRows(stream('users.arrow')),
    answer: (a) => a.summary,
    key: 'summary',
    row: (r) => [r.n, r.email],
    want: (rows, [n, i]) => [n, rows[i].email],
  },
};
for (const [name, spec] of Object.entries(tableCases)) {
  test(`${TABLES}: ${name} through the wasm table (${tables[name].cases.length} queries)`, () => {
    const table = spec.load();
    assert.equal(table.length, tables[name].rows.length);
    for (const { query, expect } of tables[name].cases) {
      const answer = table.query(query);
      const label = JSON.stringify(query);
      assert.deepEqual(spec.answer(answer), expect[spec.key], label);
      assert.equal(answer.kept, expect.kept, label);
      assert.deepEqual(
        table.page(0, 10).map(spec.row),
        expect.page.map((p) => spec.want(tables[name].rows, p)),
        label,
      );
    }
    table.free();
  });
}

test('nextSort cycles descending, ascending, none', () => {
  const first = core.nextSort(null, 'amount');
  assert.deepEqual(first, { column: 'amount', direction: 'desc' });
  const second = core.nextSort(first, 'amount');
  assert.deepEqual(second, { column: 'amount', direction: 'asc' });
  assert.equal(core.nextSort(second, 'amount'), null);
});

// network-tree.json and network-chain.json hold whole trees and a chain scenario (the Rust core's
// and the server's tests walk them), not a function's cases; phones.json is libphonenumber's
// verdicts, which phones.test.mjs holds the page's checker to; siwe.json is siwe-py's verdicts on
// messages, which only the server reads (siwe::tests).
const NOT_FUNCTION_CASES = new Set([TABLES, 'phones.json', 'siwe.json']);
for (const file of files.filter((f) => !NOT_FUNCTION_CASES.has(f) && !f.startsWith('network-'))) {
  const suites = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
  for (const [name, cases] of Object.entries(suites)) {
    test(`${file}: ${name} (${cases.length} cases)`, () => {
      assert.equal(typeof core[name], 'function', `web/src/core exports ${name}`);
      assert.ok(cases.length > 0);
      for (const { args, expect, note } of cases) {
        const label = `${name}(${JSON.stringify(args)})${note ? ` — ${note}` : ''}`;
        // JSON null stands for an absent optional argument.
        const jsArgs = args.map((a) => (a === null ? undefined : a));
        if (expect && expect.error === true) {
          assert.throws(() => core[name](...jsArgs), label);
        } else {
          assert.deepEqual(core[name](...jsArgs), expect, label);
        }
      }
    });
  }
}

test('the wallet-linking message is the EIP-4361 text the server checks', () => {
  const text = core.siweMessage({
    domain: '127.0.0.1:8080',
    address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    statement: 'Link this wallet to your LVLX account.',
    uri: 'http://127.0.0.1:8080',
    chainId: 137,
    nonce: 'a1b2c3d4e5f60718293a4b5c',
    issuedAt: 1_789_999_999_000,
    expirationTime: 1_790_000_599_000,
  });
  assert.equal(
    text,
    [
      '127.0.0.1:8080 wants you to sign in with your Ethereum account:',
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      '',
      'Link this wallet to your LVLX account.',
      '',
      'URI: http://127.0.0.1:8080',
      'Version: 1',
      'Chain ID: 137',
      'Nonce: a1b2c3d4e5f60718293a4b5c',
      'Issued At: 2026-09-21T14:13:19.000Z',
      'Expiration Time: 2026-09-21T14:23:19.000Z',
    ].join('\n'),
  );
  assert.equal(
    core.checksumAddress('0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266'),
    '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  );
  assert.equal(core.checksumAddress('0x123'), null);
  assert.throws(() =>
    core.siweMessage({
      domain: 'x',
      address: 'nope',
      statement: '',
      uri: '',
      chainId: 137,
      nonce: 'n',
      issuedAt: 0,
      expirationTime: 0,
    }),
  );
});

test('contract calldata, return values and revert keys come from the ABI artifacts', () => {
  const wallet = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
  assert.equal(
    core.calldata('LVLX', 'balanceOf', [wallet]),
    '0x70a08231000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  );
  assert.match(core.calldata('LVLX', 'approve', [wallet, '1000000']), /^0x095ea7b3[0-9a-f]{128}$/);
  assert.throws(() => core.calldata('IcoSale', 'buy', ['1']));
  assert.throws(() => core.calldata('IcoSale', 'buy', ['1.5', '0', wallet]));
  assert.equal(
    core.decodeUint(`0x${(10n ** 27n + 7n).toString(16).padStart(64, '0')}`),
    '1000000000000000000000000007',
  );
  assert.equal(core.revertKey('0x'), 'chain-reverted');
  // 2.5 USDT at 0.1 USDT per LVLX buys exactly 25 LVLX; 1 base unit of LVLX costs 1 base unit of USDT.
  assert.equal(core.quoteLvlx('2500000', '100000'), '25000000000000000000');
  assert.equal(core.usdtFor('1', '100000'), '1');
});

// ICU (V8's Intl.NumberFormat) as a second reference beside typed.json's Babel: every amount
// ICU writes in a locale reads back in that locale's page language as the same base units, or
// (Spanish only, a lone mark before three digits) is refused as ambiguous — never as another amount.
test('amounts as ICU writes them read back exactly in the page language', () => {
  const locales = ['en', 'en-GB', 'es', 'es-MX', 'es-AR', 'pt', 'pt-PT'];
  let seed = 7;
  const next = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let checked = 0;
  let refused = 0;
  for (let i = 0; i < 600; i += 1) {
    const whole = String(next(10 ** (1 + next(9))));
    const digits = next(7);
    const fraction = Array.from({ length: digits }, () => next(10)).join('');
    const plain = digits ? `${whole}.${fraction}` : whole;
    const units = core.parseUnits(plain, 6);
    for (const locale of locales) {
      for (const useGrouping of [true, false]) {
        const text = new Intl.NumberFormat(locale, { maximumFractionDigits: 6, useGrouping }).format(plain);
        const page = locale.slice(0, 2);
        const label = `${plain} as ${locale} writes it (${JSON.stringify(text)})`;
        let got;
        try {
          got = core.parseAmount(text, 6, page);
        } catch (e) {
          assert.equal(page, 'es', label);
          assert.equal(core.coreErrorKey(e), 'validations-amount-ambiguous', label);
          refused += 1;
          continue;
        }
        assert.equal(got, units, label);
        checked += 1;
      }
    }
  }
  assert.ok(checked > 7000 && refused > 0, `${checked} read, ${refused} refused`);
});

// The money history's kinds come from the core (history::Kind): each has its words in every
// language, so a kind the server starts recording cannot show as a bare key.
test('every money-history kind has its words in en, es and pt', () => {
  const kinds = core.historyKinds();
  assert.ok(kinds.includes('purchase') && kinds.length >= 9, kinds.join());
  for (const language of ['en', 'es', 'pt']) {
    const words = JSON.parse(readFileSync(new URL(`../../locales/${language}/${language}.json`, import.meta.url)));
    assert.deepEqual(
      kinds.filter((kind) => !words[`history-kind-${kind}`]),
      [],
      language,
    );
  }
});
