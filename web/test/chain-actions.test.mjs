// Every chain action's words (web/src/wallet/actions.js) in every language: each step's key
// exists, its figures are the action's, an approval names what it lets the contract take (and an
// approval of NFTs or LVLX never says USDT), and each action's words are its own, not another's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ACTION_STEPS, CHAIN_ACTIONS, actionWords } from '../src/wallet/actions.js';

const load = (lng) => JSON.parse(readFileSync(new URL(`../../locales/${lng}/${lng}.json`, import.meta.url), 'utf8'));
const LANGUAGES = { en: load('en'), es: load('es'), pt: load('pt') };
const placeholders = (s) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
// How each asset appears in a sentence: the symbols are not translated (locales/GLOSSARY.md); the
// token's is the product's placeholder.
const NAMED = { USDT: 'USDT', NFT: 'NFT', LVLX: '{{product}}' };
// What the app passes as i18next's `t`, over one language's file.
const translator = (words) => (key, values) => words[key].replace(/\{\{(\w+)\}\}/g, (_, k) => String(values[k]));

test('the table lists the actions the pages start', () => {
  assert.deepEqual(Object.keys(CHAIN_ACTIONS).sort(), [
    'buy-lvlx',
    'buy-nft',
    'buy-node',
    'claim',
    'owner-execute',
    'release',
    'stake-lvlx',
    'stake-nft',
    'withdraw-interest',
  ]);
});

for (const [action, entry] of Object.entries(CHAIN_ACTIONS)) {
  test(`${action}: its words in every language`, () => {
    const steps = ACTION_STEPS.filter((s) => s !== 'approving' || entry.approves);
    assert.deepEqual(
      Object.keys(entry.keys).sort(),
      [...steps].sort(),
      'a key for each step, an approval only when one is made',
    );
    for (const [lng, words] of Object.entries(LANGUAGES)) {
      for (const step of steps) {
        const key = entry.keys[step];
        const text = words[key];
        assert.equal(typeof text, 'string', `${lng}: ${key} for ${action} ${step}`);
        for (const name of placeholders(text))
          assert.ok(entry.values.includes(name), `${lng}: ${key} needs {{${name}}}, which ${action} does not give`);
        // What is said, with the figures filled in: no placeholder left.
        const values = Object.fromEntries(entry.values.map((v) => [v, `<${v}>`]));
        const said = actionWords(translator(words), action, step, values);
        assert.ok(!/\{\{/.test(said), `${lng}: ${said}`);
      }
      if (entry.approves) {
        const approving = words[entry.keys.approving];
        assert.ok(approving.includes(NAMED[entry.approves]), `${lng}: ${action}'s approval names ${entry.approves}`);
        if (entry.approves !== 'USDT')
          assert.ok(
            !approving.includes('USDT'),
            `${lng}: ${action} approves ${entry.approves}, not USDT: ${approving}`,
          );
      }
    }
  });
}

test("no two actions share a step's words", () => {
  const seen = new Map();
  for (const [action, entry] of Object.entries(CHAIN_ACTIONS))
    for (const key of Object.values(entry.keys)) {
      assert.ok(!seen.has(key), `${key}: ${seen.get(key)} and ${action}`);
      seen.set(key, action);
    }
});

test('an unknown action or a step the action does not have is refused, not said vaguely', () => {
  const t = translator(LANGUAGES.en);
  assert.throws(() => actionWords(t, 'buy-something', 'sending'));
  assert.throws(() => actionWords(t, 'release', 'approving'));
  assert.equal(actionWords(t, 'release', 'rejected'), null, 'rejected and failed read the same for all');
});
