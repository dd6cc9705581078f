// A box of labelled figures (the general and filtered summaries of docs/product/admin.md). A
// figure whose key has a `<key>-help` translation says under it what it counts.
import { useTranslation } from 'react-i18next';
import { localizeNumber } from '../core/index.js';

/** `items`: [[labelKey, value]]. Counts (numbers) show with the language's digit grouping. */
export default function SummaryBox({ titleKey, items, testId }) {
  const { t, i18n } = useTranslation();
  const shown = (value) => (typeof value === 'number' ? localizeNumber(String(value), i18n.language) : value);
  return (
    <section className="summary-box" aria-label={t(titleKey)} data-testid={testId}>
      <h2>{t(titleKey)}</h2>
      <dl>
        {items.map(([key, value]) => (
          <div key={key} className="summary-item" data-key={key}>
            <dt>{t(key)}</dt>
            <dd translate="no">{shown(value)}</dd>
            {i18n.exists(`${key}-help`) && <dd className="summary-help">{t(`${key}-help`)}</dd>}
          </div>
        ))}
      </dl>
    </section>
  );
}
