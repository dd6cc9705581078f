// The registration page's phone check agrees with Google's libphonenumber (testdata/phones.json,
// verdicts from its Python port) on every region's example numbers and variants of them, as the
// server's does (core-wasm validation::phones). With the library's default "min" metadata it
// disagreed on 277 of 4,929 (valid numbers refused, invalid ones let through to the server).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isValidPhoneNumber } from 'react-phone-number-input/max';

test('the page validates phone numbers as libphonenumber does', () => {
  const { cases } = JSON.parse(readFileSync(new URL('../../core-wasm/testdata/phones.json', import.meta.url), 'utf8'));
  assert.ok(cases.length > 4000);
  const disagree = cases.filter((c) => isValidPhoneNumber(c.number) !== c.valid);
  assert.deepEqual(disagree.slice(0, 20), [], `${disagree.length} of ${cases.length} disagree`);
});
