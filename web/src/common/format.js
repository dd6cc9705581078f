// How rates and days read (staking terms, network commissions): a rate as a percentage and a day,
// in the viewer's language. (Rates are basis points, not money: a display-only division.)
const percents = new Map();

export function formatRate(rateBps, language) {
  if (!percents.has(language))
    percents.set(language, new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 2 }));
  return percents.get(language).format(rateBps / 10_000);
}

const days = new Map();
/** A day as the viewer's language writes it, without the time. */
export function formatDay(ms, language) {
  if (!days.has(language)) days.set(language, new Intl.DateTimeFormat(language, { dateStyle: 'medium' }));
  return days.get(language).format(new Date(ms));
}
