// Dates are shown in the browser's locale (SPEC §9); filters use YYYY-MM-DD via the core.
const formats = new Map();

export function formatDate(ms, language) {
  if (!formats.has(language))
    formats.set(language, new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }));
  return formats.get(language).format(new Date(ms));
}
