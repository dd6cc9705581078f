// A box of labelled figures (the general and filtered summaries of SPEC §2).
import { useTranslation } from 'react-i18next';
import { localizeNumber } from '../core/index.js';

/**
 * `items`: [[labelKey, value]]. `reserved`: laid out but invisible and hidden from assistive
 * technology, so that the filtered box appearing later does not move the page.
 * Counts (numbers) show with the language's digit grouping.
 */
export default function SummaryBox({ titleKey, items, testId, reserved = false }) {
  const { t, i18n } = useTranslation();
  const shown = (value) => (typeof value === 'number' ? localizeNumber(String(value), i18n.language) : value);
  if (reserved) {
    return (
      <section className="summary-box reserved" aria-hidden="true">
        <h2>{t(titleKey)}</h2>
        <dl>
          {items.map(([key, value]) => (
            <div key={key} className="summary-item">
              <dt>{t(key)}</dt>
              <dd>{shown(value)}</dd>
            </div>
          ))}
        </dl>
      </section>
    );
  }
  return (
    <section className="summary-box" aria-label={t(titleKey)} data-testid={testId}>
      <h2>{t(titleKey)}</h2>
      <dl>
        {items.map(([key, value]) => (
          <div key={key} className="summary-item" data-key={key}>
            <dt>{t(key)}</dt>
            <dd translate="no">{shown(value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
