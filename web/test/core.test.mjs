// Runs core-wasm/testdata/*.json against the built WebAssembly package through web/src/core,
// the same module the app imports. core-wasm/tests/vectors.rs runs the same files natively.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as core from '../src/core/index.js';

const dir = new URL('../../core-wasm/testdata/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

test('every vector file is covered', () => {
  assert.deepEqual(files.sort(), ['amounts.json', 'captcha.json', 'dates.json', 'display.json', 'session.json', 'validation.json']);
});

for (const file of files) {
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
