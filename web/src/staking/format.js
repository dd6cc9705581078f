// How staking terms read: a rate over the lock as a percentage and a lock in days, in the
// viewer's language. (Rates are basis points, not money: a display-only division.)
const percents = new Map();

export function formatRate(rateBps, language) {
  if (!percents.has(language))
    percents.set(language, new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 2 }));
  return percents.get(language).format(rateBps / 10_000);
}

export const lockDays = (lockSeconds) => Math.round(lockSeconds / 86_400);
