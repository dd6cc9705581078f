// A box of labelled figures (the general and filtered summaries of SPEC §2).
import { useTranslation } from 'react-i18next';

/** `items`: [[labelKey, value]]. */
export default function SummaryBox({ titleKey, items, testId }) {
  const { t } = useTranslation();
  return (
    <section className="summary-box" aria-label={t(titleKey)} data-testid={testId}>
      <h2>{t(titleKey)}</h2>
      <dl>
        {items.map(([key, value]) => (
          <div key={key} className="summary-item" data-key={key}>
            <dt>{t(key)}</dt>
            <dd translate="no">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
