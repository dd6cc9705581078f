// What an empty table says: the tables' text ("No information available yet",
// docs/product/screens.md#data-tables), or that the filters hide every row; under it, when given,
// what the member can do about it.
import { useTranslation } from 'react-i18next';

export default function EmptyTable({ hint, filtered = false }) {
  const { t } = useTranslation();
  return (
    <div className="table-empty">
      <p>{t(filtered ? 'table-no-results' : 'table-empty')}</p>
      {hint && <p className="muted small">{hint}</p>}
    </div>
  );
}
