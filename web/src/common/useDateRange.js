// A date range as typed and the last one that could filter, for the filters that hold their own
// range (the audit, the member's staked NFTs): a range applies only when the core's rangeError
// says it can; meanwhile the last good one stays, which DateRangeFields names beside the error.
// The admin tables' ranges are their core table's query (useCoreTable), refused by the same rule.
import { useState } from 'react';
import { rangeError } from '../core/index.js';

const OPEN = { start: '', end: '' };

/** `{typed, applied, error, set(range)}`: `applied` follows `typed` whenever `error` is null. */
export default function useDateRange(initial = OPEN) {
  const [typed, setTyped] = useState(initial);
  const [applied, setApplied] = useState(initial);
  const set = (range) => {
    setTyped(range);
    if (!rangeError(range.start, range.end)) setApplied(range);
  };
  return { typed, applied, error: rangeError(typed.start, typed.end), set };
}
