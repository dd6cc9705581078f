// Dates are shown in the page's language (docs/product/money.md#dates-and-time); filters use
// YYYY-MM-DD via the core.
const formats = new Map();

export function formatDate(ms, language) {
  if (!formats.has(language))
    formats.set(language, new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }));
  return formats.get(language).format(new Date(ms));
}
