// A rank's name in the page's language: the ranks the platform ships are translated; a rank an
// admin names later shows as written.

/** Whether `name` is one of the translated ranks. */
export const isTranslatedRank = (i18n, name) => i18n.exists(`rank-${String(name).toLowerCase()}`);

/** The rank's name as text (`rank-none` without one). */
export function rankName(t, i18n, name) {
  if (!name) return t('rank-none');
  return isTranslatedRank(i18n, name) ? t(`rank-${String(name).toLowerCase()}`) : name;
}
