// An exact amount as a person reads it: the core's digits with the page language's grouping and
// decimal mark, then its unit. Tables right-align it with tabular figures (app.css `.amount`).
import { useTranslation } from 'react-i18next';
import { localizeNumber } from '../core/index.js';

/** `value`: a plain decimal from the core ("8855540174.38") or a whole count; `unit`: USDT, LVLX … */
export default function Amount({ value, unit, testId }) {
  const { i18n } = useTranslation();
  return (
    <span className="amount" translate="no" data-testid={testId}>
      {localizeNumber(value, i18n.resolvedLanguage)}
      {unit ? <span className="unit"> {unit}</span> : null}
    </span>
  );
}
